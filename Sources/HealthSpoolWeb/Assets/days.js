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
    if (file.size > max) { say(file.name + " is larger than the limit of " + Math.round(max / 1048576) + " MB. Save it to the HealthSpool folder instead.", 0); return; }
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
