/// The journal screens' styles and script, served after the app's own (`/static/app.css`,
/// `/static/app.js`): big symptom and severity buttons, the goals checklist, and the note
/// recorder.
enum JournalAssets {
    static let css = """
        [hidden]{display:none!important}
        a.button.secondary{background:#fff;color:#14365c}
        .tiles{margin-bottom:1rem}
        button:disabled{background:#eee;color:#555;border-color:#888;cursor:not-allowed}
        form.other{align-items:flex-end}
        form.other .field{margin:0}
        h3{font-size:1.15rem;margin:1rem 0 .4rem}
        .choices{list-style:none;padding:0;margin:0 0 1rem;display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:.6rem}
        .choice{display:flex;align-items:center;justify-content:center;min-height:64px;padding:.6rem;border:2px solid #14365c;border-radius:8px;background:#fff;color:#14365c;font-weight:700;font-size:1.15rem;text-decoration:none;text-align:center}
        .choice:hover{background:#e8eef6}
        .choices.small .choice{min-height:48px;font-size:1rem}
        .choice[aria-current=page]{background:#14365c;color:#fff}
        .severities{display:grid;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:.6rem}
        button.severity{flex-direction:column;align-items:flex-start;justify-content:center;min-height:84px;font-size:1.25rem;text-align:left}
        .severity span{font-weight:400;font-size:1rem}
        @media (max-width:45em){.severities{grid-template-columns:minmax(0,1fr);gap:.5rem}button.severity{display:block;min-height:56px;padding:.45rem .9rem}
        .severity span{display:inline}.severity span::before{content:" – "}details{margin-bottom:.6rem}}
        .severity.s1{background:#1d6b3a;border-color:#1d6b3a}.severity.s2{background:#6e4a00;border-color:#6e4a00}
        .severity.s3{background:#a13d00;border-color:#a13d00}.severity.s4{background:#8a0000;border-color:#8a0000}
        details{margin:0 0 1rem;border:1px solid #c8c8c0;border-radius:8px;padding:0 1rem}
        summary{padding:.7rem 0;font-weight:700;cursor:pointer;color:#0b4f9c;font-size:1.1rem}
        textarea{min-height:6rem}
        .goals,.notes{list-style:none;padding:0;margin:0}
        .goal{display:flex;flex-wrap:wrap;gap:.8rem;align-items:center;padding:.6rem 0;border-bottom:1px solid #d8d8d0}
        .goal form{margin:0}
        .tick{display:inline-flex;width:40px;height:40px;border:3px solid #14365c;border-radius:6px;align-items:center;justify-content:center;font-size:1.5rem;font-weight:700;color:#0a6b2b;flex:none}
        .goal .what{flex:1 1 12rem}
        .goal[data-done=true] .status{color:#0a6b2b;font-weight:700}
        .note{border-bottom:1px solid #d8d8d0;padding:.6rem 0}
        .note .meta{color:#444;margin:0}
        audio{display:block;width:100%;max-width:30rem;min-height:48px}
        .latest{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:1rem 2rem;margin:0;padding:0;list-style:none}
        .latest .ft{display:block;font-weight:600;color:#444}
        .latest .fv{display:block;font-size:1.5rem;font-weight:700}
        .latest .other,.latest .when{display:block;color:#444}
        .readings{list-style:none;padding:0;margin:0 0 .5rem}
        .readings li{padding:.4rem 0;border-bottom:1px solid #d8d8d0}
        .readings .time{font-variant-numeric:tabular-nums;font-weight:600;margin-right:.4rem}
        .readings .other{color:#444}
        .readings strong,.latest .fv{white-space:nowrap}
        .field .error{color:#a10000;font-weight:700;margin:0 0 .3rem}
        input[aria-invalid=true]{border-color:#a10000;border-width:3px}
        input.short{max-width:10rem}
        form p.error{color:#a10000;font-weight:700;margin:.3rem 0}
        .entries{list-style:none;padding:0;margin:0}
        .entry{display:flex;flex-wrap:wrap;gap:.6rem 1rem;align-items:center;justify-content:space-between;padding:.6rem 0;border-bottom:1px solid #d8d8d0}
        .entry .what{flex:1 1 14rem}
        .entry .rule{font-weight:600}
        .entry .ring,.entry .for{color:#444}
        .entry .actions{display:flex;flex-wrap:wrap;gap:.5rem}
        .entry form{margin:0}
        .sub{border-left:4px solid #d8d8d0;padding-left:1rem;margin:0 0 1rem}
        .sub p.for{font-weight:700;margin:.6rem 0 .2rem}
        .day-boxes{display:grid;grid-template-columns:repeat(auto-fill,minmax(9.5rem,1fr));gap:0 1rem}
        fieldset.days{margin:.2rem 0 .6rem}
        ul.ranges{list-style:none;padding:0;margin:0 0 .6rem}
        ul.ranges a[aria-current=page]{background:#14365c;color:#fff}
        svg.trend{display:block;width:100%;max-width:26rem;height:auto;margin:.2rem 0 .4rem}
        svg.trend text{font-size:18px}
        """

    /// The recorder: Start and Stop record with MediaRecorder; Save note uploads the recording
    /// as the request body with the CSRF token (without a recording the form posts as usual).
    /// Players of recordings whose length the file does not state (MediaRecorder's WebM) are
    /// made to find it, so they show how long the recording is.
    static let js = """
        document.addEventListener("DOMContentLoaded", function () {
          document.querySelectorAll("audio[data-measure], .notes audio").forEach(function (a) {
            a.addEventListener("loadedmetadata", function () {
              if (a.duration !== Infinity) return;
              a.addEventListener("timeupdate", function back() { a.removeEventListener("timeupdate", back); a.currentTime = 0; });
              a.currentTime = 1e9;
            });
          });
          var form = document.getElementById("note-form");
          var box = document.getElementById("recorder");
          var csrf = document.querySelector('meta[name="csrf"]');
          if (!form || !box || !csrf || !window.MediaRecorder || !navigator.mediaDevices) return;
          box.hidden = false;
          var start = document.getElementById("rec-start"), stop = document.getElementById("rec-stop");
          var status = document.getElementById("rec-status"), preview = document.getElementById("rec-preview");
          var save = document.getElementById("note-save");
          var recorder = null, chunks = [], blob = null, began = 0;
          start.addEventListener("click", function () {
            navigator.mediaDevices.getUserMedia({audio: true}).then(function (stream) {
              chunks = []; blob = null; preview.hidden = true;
              recorder = new MediaRecorder(stream);
              recorder.ondataavailable = function (e) { if (e.data && e.data.size) chunks.push(e.data); };
              recorder.onstop = function () {
                stream.getTracks().forEach(function (t) { t.stop(); });
                blob = new Blob(chunks, {type: (recorder.mimeType || "audio/webm").split(";")[0]});
                var secs = Math.max(1, Math.round((Date.now() - began) / 1000));
                preview.src = URL.createObjectURL(blob);
                preview.hidden = false;
                status.textContent = "Recorded " + secs + " seconds. Listen below, then press Save note to keep it.";
                start.textContent = "Record again";
                start.disabled = false; stop.disabled = true;
                save.focus();
              };
              recorder.start(250);
              began = Date.now();
              status.textContent = "Recording… Speak now, then press Stop recording.";
              start.disabled = true; stop.disabled = false;
              stop.focus();
            }).catch(function (e) { status.textContent = "The microphone could not be used (" + e.name + "). You can still type a note."; });
          });
          stop.addEventListener("click", function () { if (recorder && recorder.state !== "inactive") recorder.stop(); });
          form.addEventListener("submit", function (ev) {
            if (!blob) return;
            ev.preventDefault();
            save.disabled = true;
            status.textContent = "Saving…";
            var q = new URLSearchParams({category: form.elements.category.value, text: form.elements.text.value});
            fetch("/notes/audio?" + q.toString(), {method: "POST", credentials: "same-origin", body: blob,
                  headers: {"X-CSRF-Token": csrf.content, "Content-Type": blob.type || "audio/webm"}})
              .then(function (r) { return r.json().then(function (d) { if (!r.ok) throw new Error(d.error || ("Not saved (" + r.status + ").")); location.href = d.location; }); })
              .catch(function (e) { status.textContent = e.message; save.disabled = false; });
          });
        });
        """
}
