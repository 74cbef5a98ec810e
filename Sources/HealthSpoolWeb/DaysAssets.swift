/// The day view's and the import's style sheet and script (same-origin files: the CSP allows
/// no inline script).
enum DaysAssets {
    static let css = """
        .daynav{margin:0 0 1rem}
        .strip{list-style:none;margin:.5rem 0 0;padding:.2rem .2rem .6rem;display:flex;gap:.4rem;overflow-x:auto;scroll-snap-type:x mandatory;scroll-padding:0 40%;max-width:100%}
        .strip li{scroll-snap-align:center;flex:none}
        .strip a{display:flex;flex-direction:column;align-items:center;min-width:4.2rem;min-height:48px;padding:.3rem .4rem;background:#fff;border:2px solid #c8c8c0;border-radius:8px;text-decoration:none;color:#1a1a1a;line-height:1.2}
        .strip a .dn{font-size:1.35rem;font-weight:700}
        .strip a[aria-current=date]{background:#14365c;border-color:#14365c;color:#fff}
        .day-layout{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,22rem);gap:1rem;align-items:start}
        @media (max-width:56rem){.day-layout{grid-template-columns:minmax(0,1fr)}}
        main:has(.day-layout){max-width:80rem}
        .figures{display:flex;flex-wrap:wrap;gap:1rem 2rem;margin:0;padding:0;list-style:none}
        .figures .ft{display:block;font-weight:600;color:#444}
        .figures .fv{display:block;font-size:1.5rem;font-weight:700}
        .curve{max-width:44rem;display:block;margin:.6rem 0}
        svg.curve text{font-size:18px}
        @media (max-width:45em){svg.curve text{font-size:34px}}
        caption{text-align:left;font-weight:700;padding:.4rem 0}
        h3{font-size:1.15rem;margin:1rem 0 .3rem}
        .cal{table-layout:fixed;width:100%}
        .cal th{text-align:center;padding:.2rem 0}
        .cal td{padding:2px;border:none;text-align:center}
        .cal a{display:flex;flex-direction:column;align-items:center;justify-content:center;min-height:48px;border-radius:6px;text-decoration:none;color:#1a1a1a;border:2px solid transparent;line-height:1.1}
        .cal a[aria-current=date]{border-color:#14365c;outline:2px solid #14365c}
        .cal .mark{min-height:1.1em;font-weight:700}
        .cal .s1 a{background:#fdebd3}.cal .s2 a{background:#f8c98c}.cal .s3 a{background:#e98a3c}.cal .s4 a{background:#8f3300;color:#fff}
        .calendar .row{justify-content:space-between;margin:0 0 .5rem}
        .drop{border:3px dashed #555;border-radius:10px;padding:1rem;background:#fff}
        .drop.over{border-color:#14365c;background:#e8eef6}
        input[type=file]{font:inherit;min-height:48px;max-width:100%}
        input[type=file]::file-selector-button{font:inherit;font-weight:600;min-height:48px;padding:.5rem 1.1rem;margin-right:.8rem;border-radius:6px;border:2px solid #14365c;background:#14365c;color:#fff;cursor:pointer}
        .strip a.today:not([aria-current]){border-color:#14365c;border-style:dashed}
        .cal a.today .dn{text-decoration:underline;font-weight:700}
        """

    /// Arrow keys move a day; the chosen day is centred in the strip; the import uploads the
    /// dropped or chosen file and follows its status until it is read.
    static let js = """
        "use strict";
        document.addEventListener("DOMContentLoaded", function () {
          var current = document.querySelector('#strip a[aria-current="date"]');
          if (current) {
            var strip = document.getElementById("strip");
            strip.scrollLeft = current.offsetLeft - strip.offsetLeft - (strip.clientWidth - current.offsetWidth) / 2;
          }
          document.addEventListener("keydown", function (e) {
            if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
            var t = e.target && e.target.tagName;
            if (t === "INPUT" || t === "TEXTAREA" || t === "SELECT") return;
            var to = e.key === "ArrowLeft" ? document.getElementById("prev-day") : e.key === "ArrowRight" ? document.getElementById("next-day") : null;
            if (!to) return;
            e.preventDefault();
            window.location.assign(to.href);
          });

          var drop = document.getElementById("drop");
          var input = document.getElementById("import-file");
          var csrf = document.querySelector('meta[name="csrf"]');
          if (!drop || !input || !csrf) return;
          var text = document.getElementById("import-text");
          var bar = document.getElementById("import-progress");
          var max = parseInt(drop.getAttribute("data-max-bytes"), 10);
          function say(s, percent) { text.textContent = s; if (percent !== undefined) { bar.value = percent; bar.textContent = percent + " %"; } }
          function upload(file) {
            if (!file) return;
            if (file.size > max) { say(file.name + " is larger than the limit of " + Math.round(max / 1048576) + " MiB. Save it to the HealthSpool folder instead.", 0); return; }
            say("Uploading " + file.name + "…", 10);
            fetch("/import", {method: "POST", credentials: "same-origin", body: file,
                              headers: {"X-CSRF-Token": csrf.content, "X-File-Name": encodeURIComponent(file.name), "Content-Type": "application/octet-stream"}})
              .then(function (r) { return r.json().then(function (j) { if (!r.ok) throw new Error(j.error || ("The upload failed (" + r.status + ").")); return j; }); })
              .then(function (j) { say("Uploaded. " + j.file + " is waiting to be read…", 40); follow(j.file); })
              .catch(function (e) { say(e.message, 0); });
          }
          function follow(name) {
            fetch("/import/status?file=" + encodeURIComponent(name), {credentials: "same-origin"})
              .then(function (r) { return r.json(); })
              .then(function (s) {
                if (s.state === "done") { say(s.text, 100); return; }
                if (s.state === "failed") { say(s.text, 0); return; }
                say(s.text, s.state === "importing" ? 70 : 40);
                setTimeout(function () { follow(name); }, 500);
              })
              .catch(function () { setTimeout(function () { follow(name); }, 1000); });
          }
          input.addEventListener("change", function () { upload(input.files[0]); });
          drop.addEventListener("dragover", function (e) { e.preventDefault(); drop.classList.add("over"); });
          drop.addEventListener("dragleave", function () { drop.classList.remove("over"); });
          drop.addEventListener("drop", function (e) {
            e.preventDefault(); drop.classList.remove("over");
            if (e.dataTransfer && e.dataTransfer.files.length) upload(e.dataTransfer.files[0]);
          });
        });
        """
}
