/* lawdiff committee report: conveniences only. Every page reads and prints
   the same without this script; it adds a "show only changes" switch, a
   filter of the rows (by flag, normative, review status), the keys n / p to
   move between changes (which can be switched off), "print this pair" at
   once, the order of the changes at a glance (most significant first, or as
   the article runs), a run of unchanged clauses opened where a link leads
   into it, and a filter for the index. */
(function () {
  "use strict";
  var doc = document;
  var main = doc.querySelector("main");
  if (!main) { return; }

  // What the script says: in English as written here; a page in another language carries its words in
  // the body's data-text (JSON, made by lawdiff.report.html.markup.script_texts).
  var text = {
    view: "View", onlyChanges: "Show only changes", allRows: "all rows", normative: "normative changes",
    flag: "flag: {flag}", review: "review: {status}", filter: "Filter:", keys: "Keys",
    nextPrevious: ": next / previous change", order: "Order:", bySignificance: "most significant first",
    byArticle: "as in the article", filterArticles: "Filter articles: number or title",
    filterLabel: "Filter articles", flags: {}, status: {}, outdated: "outdated"
  };
  var given = doc.body && doc.body.getAttribute("data-text");
  if (given) {
    try {
      var said = JSON.parse(given);
      Object.keys(said).forEach(function (k) { text[k] = said[k]; });
    } catch (e) { /* a page cut short: the English words */ }
  }
  function fill(template, fields) {
    return String(template).replace(/\{(\w+)\}/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : all;
    });
  }

  function bar() {
    var div = doc.createElement("div");
    div.className = "toolbar";
    div.setAttribute("role", "group");
    div.setAttribute("aria-label", text.view);
    var first = main.querySelector("section.pair");
    main.insertBefore(div, first || main.firstChild);
    return div;
  }

  function store(key, value) {
    try {
      if (value === undefined) { return window.localStorage.getItem(key); }
      window.localStorage.setItem(key, value);
    } catch (e) { /* a file: page may have no storage: the default then */ }
    return null;
  }

  function checkbox(parent, id, text, checked) {
    var label = doc.createElement("label");
    var box = doc.createElement("input");
    box.type = "checkbox";
    box.id = id;
    box.checked = checked;
    label.appendChild(box);
    label.appendChild(doc.createTextNode(" " + text));
    parent.appendChild(label);
    return box;
  }

  var rows = Array.prototype.slice.call(doc.querySelectorAll("table.sbs tbody.change"));
  var changes = rows.filter(function (r) { return r.classList.contains("diff"); });
  var keysOn = store("lawdiff-keys") !== "off";

  if (doc.querySelector("table.sbs")) {
    var tools = bar();
    var only = checkbox(tools, "only-changes", text.onlyChanges, false);
    only.addEventListener("change", function () {
      doc.body.classList.toggle("only-changes", only.checked);
    });

    // The filter offers what the rows carry: normative, each flag, each review status.
    var choices = [["", text.allRows]];
    var has = function (cls) { return rows.some(function (r) { return r.classList.contains(cls); }); };
    if (has("normative")) { choices.push(["normative", text.normative]); }
    ["modal", "negation", "actor", "number", "reference", "condition"].forEach(function (f) {
      if (has("f-" + f)) { choices.push(["f-" + f, fill(text.flag, { flag: text.flags[f] || f })]); }
    });
    ["open", "query", "accepted", "translation-fix", "rejected"].forEach(function (s) {
      if (has("r-" + s)) { choices.push(["r-" + s, fill(text.review, { status: text.status[s] || s })]); }
    });
    if (has("r-outdated")) { choices.push(["r-outdated", fill(text.review, { status: text.outdated })]); }
    if (choices.length > 1) {
      var label = doc.createElement("label");
      label.appendChild(doc.createTextNode(text.filter + " "));
      var select = doc.createElement("select");
      select.id = "row-filter";
      choices.forEach(function (c) {
        var o = doc.createElement("option");
        o.value = c[0];
        o.textContent = c[1];
        select.appendChild(o);
      });
      label.appendChild(select);
      tools.appendChild(label);
      select.addEventListener("change", function () {
        var cls = select.value;
        rows.forEach(function (r) { r.hidden = cls !== "" && !r.classList.contains(cls); });
      });
    }

    var keysBox = checkbox(tools, "keys-on", text.keys, keysOn);
    keysBox.parentNode.className = "keys-switch";
    keysBox.addEventListener("change", function () {
      keysOn = keysBox.checked;
      store("lawdiff-keys", keysOn ? "on" : "off");
    });
    var keys = doc.createElement("span");
    keys.className = "keys";
    [["kbd", "n"], ["", " / "], ["kbd", "p"], ["", text.nextPrevious]].forEach(function (part) {
      keys.appendChild(part[0] ? doc.createElement(part[0]) : doc.createTextNode(part[1]));
      if (part[0]) { keys.lastChild.textContent = part[1]; }
    });
    tools.appendChild(keys);
  }

  // n / p: the next or previous change below or above the sticky heads gets
  // the focus (so that Tab goes on from there, and a screen reader reads it).
  var current = null;
  doc.addEventListener("keydown", function (ev) {
    if (!keysOn || ev.altKey || ev.ctrlKey || ev.metaKey || !changes.length) { return; }
    var tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (ev.target && ev.target.isContentEditable)) { return; }
    if (ev.key !== "n" && ev.key !== "p") { return; }
    var top = 90;
    var target = null;
    var i;
    var shown = changes.filter(function (r) { return r.offsetParent !== null; });
    if (ev.key === "n") {
      for (i = 0; i < shown.length; i++) {
        if (shown[i].getBoundingClientRect().top > top + 1) { target = shown[i]; break; }
      }
    } else {
      for (i = shown.length - 1; i >= 0; i--) {
        if (shown[i].getBoundingClientRect().top < top - 1) { target = shown[i]; break; }
      }
    }
    if (!target) { return; }
    if (current) { current.classList.remove("focus"); }
    current = target;
    target.classList.add("focus");
    if (!target.hasAttribute("tabindex")) { target.setAttribute("tabindex", "-1"); }
    target.focus({ preventScroll: true });
    window.scrollTo(0, window.pageYOffset + target.getBoundingClientRect().top - top);
    ev.preventDefault();
  });

  // "Print this pair": the link makes the pair the page's target (which the
  // print stylesheet reads); here the print dialog opens at once as well.
  Array.prototype.forEach.call(doc.querySelectorAll("a.print-link"), function (a) {
    a.addEventListener("click", function () {
      window.setTimeout(function () { window.print(); }, 50);
    });
  });

  // A link into a closed run of unchanged clauses opens the run (where the browser does not itself).
  function reveal() {
    var id = window.location.hash.slice(1);
    var el = null;
    try { el = id ? doc.getElementById(decodeURIComponent(id)) : null; } catch (e) { el = null; }
    var opened = false;
    for (var p = el; p; p = p.parentElement) {
      if (p.tagName === "DETAILS" && !p.open) { p.open = true; opened = true; }
    }
    if (opened) { el.scrollIntoView(); }
  }
  window.addEventListener("hashchange", reveal);
  reveal();

  // Each reader orders the changes at a glance: most significant first (as the page is written), or in the
  // order they stand in the article; the choice is kept for the next page.
  var glance = doc.getElementById("glance");
  var glanceLists = glance ? Array.prototype.slice.call(glance.querySelectorAll("ol.glance-list")) : [];
  if (glanceLists.length) {
    var place = function (li) {
      var a = li.querySelector("a[href^='#']");
      var id = a ? a.getAttribute("href").slice(1) : "";
      return id ? doc.getElementById(id) : null;
    };
    var written = glanceLists.map(function (ol) { return Array.prototype.slice.call(ol.children); });
    var orderBar = doc.createElement("div");
    orderBar.className = "glance-order";  // not a .toolbar: lawdiff serve adds its keys to the first of those
    var orderLabel = doc.createElement("label");
    orderLabel.appendChild(doc.createTextNode(text.order + " "));
    var order = doc.createElement("select");
    order.id = "glance-order";
    [["significance", text.bySignificance], ["article", text.byArticle]].forEach(function (c) {
      var o = doc.createElement("option");
      o.value = c[0];
      o.textContent = c[1];
      order.appendChild(o);
    });
    orderLabel.appendChild(order);
    orderBar.appendChild(orderLabel);
    glance.insertBefore(orderBar, glance.querySelector("h2").nextSibling);
    var arrange = function () {
      glanceLists.forEach(function (ol, k) {
        var items = written[k].slice();
        if (order.value === "article") {
          items.sort(function (x, y) {
            var a = place(x), b = place(y);
            if (!a || !b || a === b) { return 0; }
            return a.compareDocumentPosition(b) & 4 ? -1 : 1;
          });
        }
        items.forEach(function (li) { ol.appendChild(li); });
      });
    };
    order.value = store("lawdiff-glance-order") === "article" ? "article" : "significance";
    order.addEventListener("change", function () {
      store("lawdiff-glance-order", order.value);
      arrange();
    });
    arrange();
  }

  var matrix = doc.getElementById("matrix");
  if (matrix) {
    var filterBar = doc.createElement("div");
    filterBar.className = "toolbar";
    var input = doc.createElement("input");
    input.type = "search";
    input.placeholder = text.filterArticles;
    input.setAttribute("aria-label", text.filterLabel);
    filterBar.appendChild(input);
    var box = matrix.parentNode;
    box.parentNode.insertBefore(filterBar, box);
    var articleRows = Array.prototype.slice.call(matrix.tBodies[0].rows);
    input.addEventListener("input", function () {
      var q = input.value.trim().toLowerCase();
      articleRows.forEach(function (row) {
        var head = row.cells[0].textContent.toLowerCase();
        row.hidden = q !== "" && head.indexOf(q) === -1;
      });
    });
  }
}());
