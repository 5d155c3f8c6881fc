/* lawdiff committee report: conveniences only. Every page reads and prints
   the same without this script; it adds a "show only changes" switch, the
   keys n / p to jump between changes, and a filter for the index. */
(function () {
  "use strict";
  var doc = document;
  var main = doc.querySelector("main");
  if (!main) { return; }

  function bar() {
    var div = doc.createElement("div");
    div.className = "toolbar";
    var first = main.querySelector("section.pair");
    main.insertBefore(div, first || main.firstChild);
    return div;
  }

  var changes = Array.prototype.slice.call(doc.querySelectorAll("table.sbs tbody.diff"));
  if (doc.querySelector("table.sbs")) {
    var tools = bar();
    var label = doc.createElement("label");
    var box = doc.createElement("input");
    box.type = "checkbox";
    box.id = "only-changes";
    label.appendChild(box);
    label.appendChild(doc.createTextNode(" Show only changes"));
    tools.appendChild(label);
    box.addEventListener("change", function () {
      doc.body.classList.toggle("only-changes", box.checked);
    });
    var keys = doc.createElement("span");
    keys.className = "keys";
    [["kbd", "n"], ["", " / "], ["kbd", "p"], ["", ": next / previous change"]].forEach(function (part) {
      keys.appendChild(part[0] ? doc.createElement(part[0]) : doc.createTextNode(part[1]));
      if (part[0]) { keys.lastChild.textContent = part[1]; }
    });
    tools.appendChild(keys);
  }

  var current = null;
  doc.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || !changes.length) { return; }
    var tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") { return; }
    if (ev.key !== "n" && ev.key !== "p") { return; }
    var top = 60;
    var target = null;
    var i;
    if (ev.key === "n") {
      for (i = 0; i < changes.length; i++) {
        if (changes[i].getBoundingClientRect().top > top + 1) { target = changes[i]; break; }
      }
    } else {
      for (i = changes.length - 1; i >= 0; i--) {
        if (changes[i].getBoundingClientRect().top < top - 1) { target = changes[i]; break; }
      }
    }
    if (!target) { return; }
    if (current) { current.classList.remove("focus"); }
    current = target;
    target.classList.add("focus");
    window.scrollTo(0, window.pageYOffset + target.getBoundingClientRect().top - top);
    ev.preventDefault();
  });

  var matrix = doc.getElementById("matrix");
  if (matrix) {
    var filterBar = doc.createElement("div");
    filterBar.className = "toolbar";
    var input = doc.createElement("input");
    input.type = "search";
    input.placeholder = "Filter articles: number or title";
    input.setAttribute("aria-label", "Filter articles");
    filterBar.appendChild(input);
    matrix.parentNode.parentNode.insertBefore(filterBar, matrix.parentNode);
    var rows = Array.prototype.slice.call(matrix.tBodies[0].rows);
    input.addEventListener("input", function () {
      var q = input.value.trim().toLowerCase();
      rows.forEach(function (row) {
        var head = row.cells[0].textContent.toLowerCase();
        row.hidden = q !== "" && head.indexOf(q) === -1;
      });
    });
  }
}());
