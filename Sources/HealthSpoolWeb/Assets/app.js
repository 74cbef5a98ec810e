"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var csrf = document.querySelector('meta[name="csrf"]');
  var button = document.getElementById("sync-now");
  if (!button || !csrf) return;
  var bar = document.getElementById("sync-progress");
  var text = document.getElementById("sync-text");
  button.addEventListener("click", function (ev) {
    ev.preventDefault();
    button.disabled = true;
    text.textContent = "Starting…";
    fetch("/sync", {method: "POST", headers: {"X-CSRF-Token": csrf.content}, credentials: "same-origin"})
      .then(function (r) { if (!r.ok) throw new Error("The sync could not start (" + r.status + ")."); follow(); })
      .catch(function (e) { text.textContent = e.message; button.disabled = false; });
  });
  function follow() {
    var es = new EventSource("/sync/events");
    es.onmessage = function (m) {
      var d = JSON.parse(m.data);
      bar.value = d.percent;
      bar.textContent = d.percent + " %";
      text.textContent = d.percent + " % – " + d.message;
      if (d.done) { es.close(); button.disabled = false; }
    };
    es.onerror = function () { es.close(); button.disabled = false; };
  }
});
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
// Issue 40: after a save the page comes back where the person was, and a tap that lands right
// after it came back does nothing. A tremor's taps 120–200 ms apart, meant for "Taken", landed on
// "Headache" and then a severity of the page that had reloaded scrolled to the top.
(function () {
  var KEY = "healthspool.place", STRAY_MS = 700;
  // Posting a form: remember the element the form sits in (the nearest one with an id) and where
  // it was in the window, so the page the post lands on can put it back there.
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form || (form.method || "").toLowerCase() !== "post") return;
    var anchor = form.closest("[id]:not(form)") || form;
    if (!anchor.id) return;
    try {
      sessionStorage.setItem(KEY, JSON.stringify({path: location.pathname, id: anchor.id,
        top: anchor.getBoundingClientRect().top, at: Date.now()}));
    } catch (e) { /* storage off: the page opens at its top, as without script */ }
  }, true);
  function restore() {
    var place = null;
    try { place = JSON.parse(sessionStorage.getItem(KEY) || "null"); sessionStorage.removeItem(KEY); } catch (e) { return; }
    if (!place || place.path !== location.pathname || Date.now() - place.at > 15000) return;
    var anchor = document.getElementById(place.id);
    if (!anchor) return;
    // The message at the top (and any row that changed) moved it: scroll by the difference.
    window.scrollBy(0, anchor.getBoundingClientRect().top - place.top);
    // The message ("Reminder set … Undo") would now be out of sight above: it moves next to what
    // was saved, and stays in view (the stray-tap guard below covers the page moving under a tap).
    var notice = document.querySelector(".notice.ok");
    if (notice && notice.getBoundingClientRect().bottom < 0 && !notice.contains(anchor)) {
      anchor.parentNode.insertBefore(notice, anchor);
      window.scrollBy(0, anchor.getBoundingClientRect().top - place.top);
      if (notice.getBoundingClientRect().top < 0) notice.scrollIntoView({block: "start"});
    }
  }
  // A tap on a touch screen or with a pen in the first moment after the page appeared was aimed
  // at the page before: no one aims at a page in under 0.7 s. Mouse and keyboard are not held back.
  var shown = performance.now(), pointer = "";
  window.addEventListener("pageshow", function (ev) { if (ev.persisted) shown = performance.now(); });
  document.addEventListener("pointerdown", function (ev) { pointer = ev.pointerType; }, true);
  function stray(ev) {
    if (pointer !== "touch" && pointer !== "pen") return;
    if (performance.now() - shown >= STRAY_MS) return;
    if (!ev.target.closest || !ev.target.closest("a, button, input, select, textarea, label, summary")) return;
    ev.preventDefault();
    ev.stopPropagation();
  }
  document.addEventListener("click", stray, true);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", restore); else restore();
})();
// Issue 40: a time box's text is selected when it is tapped or reached, so "0900" typed into the
// middle of "18:07" replaces it (the browser's own time box saved 06:07 for that).
(function () {
  function pick(ev) {
    var box = ev.target;
    if (!box.matches || !box.matches("input[data-time]")) return;
    setTimeout(function () { if (document.activeElement === box) box.select(); }, 0);
  }
  document.addEventListener("focusin", pick);
  document.addEventListener("mouseup", function (ev) {
    if (ev.target.matches && ev.target.matches("input[data-time]") && ev.target.selectionStart !== ev.target.selectionEnd) ev.preventDefault();
  });
})();
