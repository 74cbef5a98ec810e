// The summary page's script: the Print button prints, and on a phone each table row is shown
// as a block of "heading: value" lines (issue 40: the tables scrolled sideways inside a 354 px
// box). Each cell is given its column's heading; report.css stacks the rows of such tables on a
// narrow screen. Without the script the tables scroll inside their box, as before.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var b = document.getElementById("report-print");
  if (b) b.addEventListener("click", function () { window.print(); });
  document.querySelectorAll(".report table").forEach(function (t) {
    var heads = Array.prototype.map.call(t.querySelectorAll("thead th"), function (th) { return th.textContent.trim(); });
    if (!heads.length) return;
    t.querySelectorAll("tbody tr, tfoot tr").forEach(function (tr) {
      Array.prototype.forEach.call(tr.children, function (cell, i) { if (heads[i]) cell.setAttribute("data-label", heads[i]); });
    });
    t.classList.add("stacks");
  });
});
