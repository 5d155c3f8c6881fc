/* lawdiff serve: the review forms update in place, keys to accept or query,
   and everyone's writes and the chair's "now discussing" mark followed live. Every form works
   without this script (a POST, then back to the row); it only saves the
   page reload. No inline script: the policy admits this file alone. */
(function () {
  "use strict";
  var doc = document;

  // What the script says, in the member's language: the server puts it in the bar (data-text, made by
  // lawdiff.serve.frame.script_texts); a page without it (the sign-in page) has nothing for it to say.
  var text = { status: {} };
  var barText = doc.querySelector(".serve-bar[data-text]");
  if (barText) {
    try { text = JSON.parse(barText.getAttribute("data-text")); } catch (e) { /* a page cut short */ }
  }
  function fill(template, fields) {
    return String(template || "").replace(/\{(\w+)\}/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : all;
    });
  }

  function tokenOf(form) {
    var field = form.querySelector('input[name="csrf"]');
    return field ? field.value : "";
  }

  // kind: "good" (saved), "bad" (refused or failed), "busy" (on its way).
  function say(block, message, kind) {
    var msg = block && block.querySelector(".rv-msg");
    if (!msg) { return; }
    msg.textContent = message;
    msg.className = "rv-msg " + kind;
  }

  function replaceBlock(block, html, status, prepare) {
    var holder = doc.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.firstElementChild;
    if (!fresh) { return block; }
    // A disclosure open in the row stays open in its new block.
    Array.prototype.forEach.call(block.querySelectorAll("details[open]"), function (d) {
      var twin = d.className ? fresh.querySelector("details." + d.className.split(" ").join(".")) : null;
      if (twin) { twin.open = true; }
    });
    if (prepare) { prepare(fresh); }
    block.parentNode.replaceChild(fresh, block);
    var row = fresh.closest("tbody");
    if (row && status) {
      Array.prototype.slice.call(row.classList).forEach(function (c) {
        if (c.indexOf("st-") === 0) { row.classList.remove(c); }
      });
      row.classList.add("st-" + status);
    }
    return fresh;
  }

  // The block of a change as the page holds it now: a live update may have replaced the one a form was
  // sent from while the write was on its way.
  function current(block) {
    var id = block && block.getAttribute("data-change");
    var now = id ? doc.querySelector('.rv[data-change="' + id + '"]') : null;
    return now || block;
  }

  // What a row says of its last write ("Saved.") stays when a live update redraws the row.
  function carryMessage(block, fresh) {
    var msg = block.querySelector(".rv-msg");
    var twin = fresh.querySelector(".rv-msg");
    if (msg && twin && msg.textContent) {
      twin.textContent = msg.textContent;
      twin.className = msg.className;
    }
  }

  function send(form, submitter) {
    var block = form.closest(".rv");
    var data = submitter ? new FormData(form, submitter) : new FormData(form);
    var buttons = form.querySelectorAll("button");
    Array.prototype.forEach.call(buttons, function (b) { b.dataset.wasDisabled = b.disabled ? "1" : ""; b.disabled = true; });
    say(block, text.saving, "busy");
    fetch(form.action, {
      method: "POST",
      body: new URLSearchParams(data),
      credentials: "same-origin",
      headers: { "X-Lawdiff-Fetch": "1", "X-CSRF-Token": tokenOf(form) }
    }).then(function (r) {
      return r.json().then(function (body) { return { ok: r.ok, body: body }; });
    }).then(function (res) {
      var target = current(block);
      if (res.body.html) {
        // What the member typed meanwhile in the row's other forms (an assignee while the comment was
        // on its way) stays; the form just sent starts afresh.
        var from = target;
        target = replaceBlock(target, res.body.html, res.body.status, function (fresh) {
          var refocus = carryTyping(from, fresh, form.getAttribute("action"));
          if (refocus) { window.setTimeout(function () { refocus.focus(); }, 0); }
        });
      }
      say(target, res.body.message || (res.ok ? text.saved : text.notSaved), res.ok ? "good" : "bad");
      if (!res.body.html) {
        Array.prototype.forEach.call(buttons, function (b) { b.disabled = b.dataset.wasDisabled === "1"; });
      }
    }).catch(function () {
      say(current(block), text.unreachable, "bad");
      Array.prototype.forEach.call(buttons, function (b) { b.disabled = b.dataset.wasDisabled === "1"; });
    });
  }

  doc.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.classList || !form.classList.contains("rv-form")) { return; }
    ev.preventDefault();
    send(form, ev.submitter || null);
  });

  // Keys a / q: accept or query the current change (the one n / p went to,
  // else the first change row in view).
  function currentRow() {
    var focused = doc.querySelector("table.sbs tbody.focus");
    if (focused) { return focused; }
    var rows = doc.querySelectorAll("table.sbs tbody.diff");
    for (var i = 0; i < rows.length; i++) {
      var box = rows[i].getBoundingClientRect();
      if (box.bottom > 60 && box.top < window.innerHeight) { return rows[i]; }
    }
    return null;
  }

  doc.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) { return; }
    var tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || tag === "BUTTON") { return; }
    var wanted = { a: "accepted", q: "query" }[ev.key];
    if (!wanted) { return; }
    var row = currentRow();
    if (!row) { return; }
    var block = row.querySelector(".rv");
    var button = row.querySelector('form.rv-status button[value="' + wanted + '"]');
    ev.preventDefault();
    if (!button) {
      say(block, wanted === "accepted" ? text.onlyChairs : text.mayNot, "bad");
      return;
    }
    if (button.disabled) { say(block, fill(text.already, { status: text.status[wanted] || wanted }), "good"); return; }
    send(button.form, button);
  });

  var toolbar = doc.querySelector(".toolbar");
  if (toolbar && doc.querySelector("table.sbs .rv")) {
    var keys = doc.createElement("span");
    keys.className = "keys";
    [["kbd", "a"], ["", " / "], ["kbd", "q"], ["", ": " + text.keys]].forEach(function (part) {
      keys.appendChild(part[0] ? doc.createElement(part[0]) : doc.createTextNode(part[1]));
      if (part[0]) { keys.lastChild.textContent = part[1]; }
    });
    toolbar.appendChild(keys);
  }

  // The chair's mark, followed live.
  var now = doc.getElementById("serve-now");
  var follow = doc.getElementById("follow");
  if (follow) {
    follow.checked = window.sessionStorage.getItem("lawdiff-follow") === "1";
    follow.addEventListener("change", function () {
      window.sessionStorage.setItem("lawdiff-follow", follow.checked ? "1" : "");
    });
  }
  function showNow(mark) {
    if (!now || !mark || mark.change === now.dataset.change) { return; }
    now.dataset.change = mark.change;
    while (now.firstChild) { now.removeChild(now.firstChild); }
    now.appendChild(doc.createTextNode(text.now + " "));
    if (mark.change) {
      var link = doc.createElement("a");
      link.href = mark.href;
      link.textContent = mark.label;
      now.appendChild(link);
      var by = doc.createElement("span");
      by.className = "by";
      by.textContent = " " + fill(text.setBy, { name: mark.by });
      now.appendChild(by);
      if (window.sessionStorage.getItem("lawdiff-follow") === "1") { window.location.href = mark.href; }
    } else {
      var none = doc.createElement("span");
      none.className = "none";
      none.textContent = text.nothing;
      now.appendChild(none);
    }
  }

  // What someone is typing in a block survives the block's update.
  // except: the action of a form whose fields are not carried (the one just sent).
  function carryTyping(from, to, except) {
    var focused = doc.activeElement;
    var refocus = null;
    Array.prototype.forEach.call(from.querySelectorAll("textarea, input[type=text]"), function (field) {
      var form = field.closest("form");
      if (except && form && form.getAttribute("action") === except) { return; }
      var selector = (form ? 'form[action="' + form.getAttribute("action") + '"] ' : "") + '[name="' + field.name + '"]';
      var twin = to.querySelector(selector);
      if (!twin) { return; }
      if (field.value !== field.defaultValue) { twin.value = field.value; }
      if (field === focused) { refocus = twin; }
      var open = field.closest("details");
      var twinOpen = twin.closest("details");
      if (open && twinOpen && open.open) { twinOpen.open = true; }
    });
    return refocus;
  }

  // On a phone, the article's summaries (at a glance, the synopsis of every edition) fold into a
  // disclosure each, so that the changes come first; without this script they show unfolded.
  if (window.matchMedia && window.matchMedia("(max-width: 760px)").matches) {
    Array.prototype.forEach.call(doc.querySelectorAll("main > section.glance, main > section.synopsis"), function (section) {
      var heading = section.querySelector("h2");
      if (!heading) { return; }
      var fold = doc.createElement("details");
      fold.className = "folded";
      var summary = doc.createElement("summary");
      summary.textContent = heading.textContent;
      fold.appendChild(summary);
      while (heading.nextSibling) { fold.appendChild(heading.nextSibling); }
      heading.replaceWith(fold);
    });
  }

  // Everyone's writes, live: every poll asks what was written since the page's version and
  // puts in the rows that changed (an article page) or the page's main part (the others).
  var serveBar = doc.querySelector(".serve-bar[data-version]");
  var version = serveBar ? parseInt(serveBar.dataset.version, 10) : -1;
  var rowsHere = doc.querySelector("table.sbs .rv") !== null;
  var busyMain = false;

  function refreshMain() {
    var main = doc.querySelector("main");
    var active = doc.activeElement;
    if (!main || busyMain || (active && main.contains(active) && /INPUT|TEXTAREA|SELECT/.test(active.tagName))) { return; }
    busyMain = true;
    fetch(window.location.href, { credentials: "same-origin" }).then(function (r) {
      return r.ok ? r.text() : null;
    }).then(function (text) {
      busyMain = false;
      if (!text) { return; }
      var fresh = new DOMParser().parseFromString(text, "text/html").querySelector("main");
      if (fresh) { main.replaceWith(doc.importNode(fresh, true)); }
    }).catch(function () { busyMain = false; });
  }

  function poll() {
    var url = "/api/updates?since=" + version + "&page=" + encodeURIComponent(window.location.pathname);
    fetch(url, { credentials: "same-origin", headers: { "X-Lawdiff-Fetch": "1" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (news) {
        if (!news) { return; }
        showNow(news.now);
        if (version < 0 || news.version === version) { version = news.version; return; }
        version = news.version;
        if (news.reload) { window.location.reload(); return; }
        if (!rowsHere) { refreshMain(); return; }
        Object.keys(news.blocks || {}).forEach(function (id) {
          var block = doc.querySelector('.rv[data-change="' + id + '"]');
          if (!block) { return; }
          var refocus = null;
          replaceBlock(block, news.blocks[id].html, news.blocks[id].status, function (fresh) {
            carryMessage(block, fresh);
            refocus = carryTyping(block, fresh);
          });
          if (refocus) { refocus.focus(); }
        });
      }).catch(function () { /* the server is restarting: try again at the next poll */ });
  }
  if (serveBar || now) { window.setInterval(poll, 1000); }  // views.POLL_SECONDS
}());
