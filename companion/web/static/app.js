// The pages' only script: live updates over one socket, forms sent as JSON, joining a seat.
// Plain ES5-level JavaScript so that a five-year-old phone browser runs it.
(function () {
  "use strict";
  var page = document.body.getAttribute("data-page");
  var link = document.getElementById("link");
  // The words this script shows, in the table's language: drawn by the server into the page.
  var words = JSON.parse(document.body.getAttribute("data-words") || "{}");

  function say(text) { if (link) { link.textContent = text; } }

  function post(url, data, done) {
    var xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("Content-Type", "application/json");
    xhr.onload = function () {
      var answer = {};
      try { answer = JSON.parse(xhr.responseText); } catch (e) { answer = {ok: false, sentence: words.noAnswer}; }
      done(answer);
    };
    xhr.onerror = function () { done({ok: false, sentence: words.unreachable}); };
    xhr.send(JSON.stringify(data));
  }

  function fields(form, pressed) {
    var data = {};
    var items = form.elements;
    for (var i = 0; i < items.length; i++) {
      var item = items[i];
      if (!item.name || item.type === "submit") { continue; }
      if (item.disabled || (item.type === "checkbox" && !item.checked)) { continue; }
      if (item.getAttribute("data-chip") && !item.value) { continue; }  // a place left free
      var value = item.type === "number" ? parseInt(item.value, 10) : item.value;
      var dot = item.name.indexOf(".");
      var colon = item.name.indexOf(":");
      if (item.name.slice(-2) === "[]") {  // checked boxes of one name: a list
        var list = item.name.slice(0, -2);
        (data[list] = data[list] || []).push(value);
      } else if (colon > 0) {  // "group:key": one field of a group
        var group = item.name.slice(0, colon);
        (data[group] = data[group] || {})[item.name.slice(colon + 1)] = value;
      } else if (dot > 0) {
        var key = item.name.slice(0, dot);
        (data[key] = data[key] || [])[parseInt(item.name.slice(dot + 1), 10)] = value;
      } else {
        data[item.name] = value;
      }
    }
    if (pressed && pressed.name) { data[pressed.name] = pressed.value; }
    return data;
  }

  // The nearest element of ``tag`` holding ``node`` (a tap on a chip's colour is a tap on it).
  function up(node, tag) {
    while (node && node.tagName !== tag) { node = node.parentNode; }
    return node;
  }
  // The key that finds a form again in a redrawn picture: its entry type or host command.
  function keyOf(form) {
    return form.getAttribute("data-type") ? "data-type" : "data-do";
  }

  // -- the answer to the last input: one sentence, just below the form that sent it --------
  // It belongs to the prompt it answers: the game, race, phase and turn the player's part
  // names (its data-prompt). Once the page shows another prompt the answer is past and goes:
  // "Done." when the prompt it was sent under is over, a refusal at the next change after it
  // came (so it is read at least once).
  var last = null;  // {key, value, ok, text, prompt}: kept across redraws of its prompt
  function prompt() {
    var mine = document.getElementById("private");
    return mine ? mine.getAttribute("data-prompt") || "" : "";
  }
  function answer(result, form, asked) {
    last = {ok: result.ok, text: result.ok ? (result.sentence || words.done) : result.sentence};
    last.prompt = result.ok && asked !== undefined ? asked : prompt();
    if (form) { last.key = keyOf(form); last.value = form.getAttribute(last.key); }
    place();
  }
  function place() {
    var old = document.getElementById("note");
    if (old) { old.parentNode.removeChild(old); }
    if (last && last.prompt !== prompt()) { last = null; }
    if (!last) { return; }
    var mine = document.getElementById("private");
    // The table's own answer to this phone's input is drawn in the private part already.
    if (!last.ok && mine && mine.querySelector(".refusal")) { return; }
    var note = document.createElement("p");
    note.id = "note";
    note.setAttribute("role", last.ok ? "status" : "alert");
    note.className = last.ok ? "ok" : "refusal";
    note.textContent = last.text;
    var form = last.key ? document.querySelector("form[" + last.key + "='" + last.value + "']") : null;
    var top = mine ? mine.querySelector("h2") : null;  // under the player's name
    if (form) {
      form.parentNode.insertBefore(note, form.nextSibling);
    } else if (top) {
      top.parentNode.insertBefore(note, top.nextSibling);
    } else {
      document.body.insertBefore(note, document.body.firstChild);
    }
  }
  // A form the browser refuses to send (a stake over the limit) is answered by the browser
  // itself: the answer to an earlier input goes.
  document.addEventListener("invalid", function () { if (last) { last = null; place(); } }, true);
  // A refusal of this player's input is on the public part too ("Anna's bet refused"): their
  // own page shows it once, with its reason, in the private part.
  function ownRefusal() {
    var mine = document.getElementById("private");
    var me = mine && mine.getAttribute("data-player");
    var shown = document.querySelectorAll("#public .refusal[data-player]");
    for (var i = 0; i < shown.length; i++) { shown[i].hidden = shown[i].getAttribute("data-player") === me; }
  }

  // -- chips tapped in order: each tap fills the next free place, a second tap frees it -----
  function drawChips(box) {
    var places = box.querySelectorAll("input[data-chip]");
    var buttons = box.querySelectorAll("button.chip");
    for (var i = 0; i < buttons.length; i++) {
      var at = 0;
      for (var j = 0; j < places.length; j++) { if (places[j].value && places[j].value === buttons[i].value) { at = j + 1; } }
      buttons[i].setAttribute("aria-pressed", at ? "true" : "false");
      var badge = buttons[i].querySelector(".place");
      if (badge) { badge.textContent = at && places.length > 1 ? String(at) : ""; }
    }
  }
  function tapChip(button) {
    var box = up(button, "FIELDSET");
    var places = box.querySelectorAll("input[data-chip]");
    var i;
    for (i = 0; i < places.length; i++) {
      if (places[i].value === button.value) { places[i].value = ""; drawChips(box); return; }
    }
    for (i = 0; i < places.length; i++) {
      if (!places[i].value) { places[i].value = button.value; drawChips(box); return; }
    }
    if (places.length === 1) { places[0].value = button.value; drawChips(box); }
  }
  // Whether every chip picker of ``form`` has the places it needs filled.
  function chosen(form) {
    var boxes = form.querySelectorAll("fieldset.chips");
    for (var i = 0; i < boxes.length; i++) {
      var filled = 0;
      var places = boxes[i].querySelectorAll("input[data-chip]");
      for (var j = 0; j < places.length; j++) { if (places[j].value) { filled++; } }
      if (filled < parseInt(boxes[i].getAttribute("data-need"), 10)) { return false; }
    }
    return true;
  }

  // Forms inside the live part are redrawn often: one listener on the document handles them.
  var lastPressed = null;
  document.addEventListener("click", function (event) {
    var target = up(event.target, "BUTTON");
    if (!target) { return; }
    if (target.type === "button" && target.className === "chip") {
      tapChip(target);
      if (target.form) { target.form.setAttribute("data-touched", "1"); }
      event.preventDefault();
      return;
    }
    if (target.tagName === "BUTTON" && (target.className === "up" || target.className === "down")) {
      var input = target.parentNode.querySelector("input");
      var step = parseInt(input.step, 10) || 1;
      var value = (parseInt(input.value, 10) || 0) + (target.className === "up" ? step : -step);
      var top = parseInt(input.max, 10);
      input.value = Math.max(0, isNaN(top) ? value : Math.min(top, value));
      if (target.form) { target.form.setAttribute("data-touched", "1"); }
      event.preventDefault();
      return;
    }
    if (target.tagName === "BUTTON" && target.className === "pick") {  // one more card in the row
      var form = target.form;
      var cards = form.querySelector("input[name=cards]");
      cards.value = cards.value ? cards.value + "," + target.value : target.value;
      var row = form.querySelector(".row span");
      row.textContent = row.textContent ? row.textContent + " " + target.textContent : target.textContent;
      target.disabled = true;
      form.setAttribute("data-touched", "1");
      event.preventDefault();
      return;
    }
    if (target.tagName === "BUTTON" && target.type === "submit") { lastPressed = target; }
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    event.preventDefault();
    var pressed = lastPressed && lastPressed.form === form ? lastPressed : null;
    lastPressed = null;
    var data = fields(form, pressed);
    // Sent: the page catches up with the table again (a box still focused would hold it).
    if (document.activeElement && form.contains(document.activeElement)) { document.activeElement.blur(); }
    if (form.id === "join") { return join(data); }
    if (form.id === "join-new") { return joinAs(data); }
    var ask = form.getAttribute("data-confirm");
    if (ask && !window.confirm(ask)) { return; }
    var asked = prompt();  // the prompt this input answers
    var done = function (result) { settled(result, form, asked); };
    if (form.getAttribute("data-leave")) { return post("/api/leave", {}, done); }
    if (!chosen(form)) { return answer({ok: false, sentence: words.choose}, form); }
    last = null;
    place();
    if (form.className.indexOf("command") >= 0) {
      data["do"] = form.getAttribute("data-do");
      form.removeAttribute("data-touched");
      if (data["do"] !== "new_game" && data.game) { data.game = parseInt(data.game, 10); }
      post("/api/host", data, done);
    } else {
      data.type = form.getAttribute("data-type");
      form.removeAttribute("data-touched");
      post("/api/input", data, done);
    }
  });
  // The host's new-game form shows the options of the game chosen, and only those.
  function showGame(form) {
    var chosen = form.getAttribute("data-game");
    var sets = form.querySelectorAll("fieldset[data-game]");
    for (var i = 0; i < sets.length; i++) { sets[i].hidden = sets[i].getAttribute("data-game") !== chosen; }
  }
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.form) { target.form.setAttribute("data-touched", "1"); }
    if (target.tagName === "SELECT" && target.className === "game") {
      target.form.setAttribute("data-game", target.value);
      showGame(target.form);
    }
  });

  // -- joining ----------------------------------------------------------------------------
  function join(data) {
    var status = document.getElementById("joined");
    post("/api/join", data, function (result) {
      if (!result.ok) { status.textContent = result.sentence; return; }
      status.textContent = words.asked;
      wait(status);
    });
  }
  // A new seat: the name typed in its own form, the code from the join form above it.
  function joinAs(data) {
    var code = document.querySelector("#join input[name=code]");
    if (!code.checkValidity()) { code.reportValidity(); return; }
    data.code = code.value;
    join(data);
  }
  function wait(status) {
    var xhr = new XMLHttpRequest();
    xhr.open("GET", "/api/join");
    xhr.onload = function () {
      var result = {};
      try { result = JSON.parse(xhr.responseText); } catch (e) { result = {ok: false, sentence: words.noAnswer}; }
      if (!result.ok) { status.textContent = result.sentence; return; }
      if (result.waiting) { setTimeout(function () { wait(status); }, 400); return; }
      window.location.replace(result.go);
    };
    xhr.onerror = function () { setTimeout(function () { wait(status); }, 2000); };
    xhr.send();
  }
  if (page === "join") {
    var code = document.querySelector("input[name=code]");
    if (code && window.location.hash.length > 1) { code.value = window.location.hash.slice(1); }
    return;
  }

  // -- live updates -------------------------------------------------------------------------
  var retry = 500;
  var held = {};  // pictures not shown yet because a form in the part was being filled in
  function replace(id, html) {
    var old = document.getElementById(id);
    if (!old) { return; }
    // A form being filled in is kept: the player's half-typed stake, or the cards tapped so
    // far, are not wiped by a redraw; the newest picture is shown once it is sent.
    var active = document.activeElement;
    var typing = active && old.contains(active) && (active.tagName === "INPUT" || active.tagName === "SELECT" || active.tagName === "TEXTAREA");
    if (typing) { held[id] = html; return; }
    delete held[id];
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.firstChild;
    if (!fresh) { return; }
    var touched = old.querySelectorAll("form[data-touched]");
    for (var i = 0; i < touched.length; i++) { carry(touched[i], fresh); }
    keepFolds(old, fresh);
    old.parentNode.replaceChild(fresh, old);
    place();
    ownRefusal();
    turn();
    awake();
  }
  // A part folded or unfolded by hand stays so in the new picture (the host page's parts, the
  // evening's standings): the server's choice holds only until the person chooses.
  document.addEventListener("click", function (event) {  // a tap (or Enter) on its title
    var summary = up(event.target, "SUMMARY");
    if (summary && summary.parentNode.tagName === "DETAILS") { summary.parentNode.setAttribute("data-toggled", "1"); }
  }, true);
  function keepFolds(old, fresh) {
    var folds = old.querySelectorAll("details[data-toggled]");
    for (var i = 0; i < folds.length; i++) {
      var key = folds[i].getAttribute("data-fold") || folds[i].className;
      var twins = fresh.querySelectorAll("details");
      for (var j = 0; j < twins.length; j++) {
        if ((twins[j].getAttribute("data-fold") || twins[j].className) === key) {
          twins[j].open = folds[i].open;
          twins[j].setAttribute("data-toggled", "1");
        }
      }
    }
  }
  // What a player entered in a form (counts stepped, cards tapped, a choice) goes on into the
  // same form of the new picture.
  function carry(form, fresh) {
    var key = keyOf(form);
    var into = fresh.querySelector("form[" + key + "='" + form.getAttribute(key) + "']");
    if (!into) { return; }
    into.setAttribute("data-touched", "1");
    if (form.getAttribute("data-game")) {
      into.setAttribute("data-game", form.getAttribute("data-game"));
      showGame(into);
    }
    var items = form.elements;
    for (var i = 0; i < items.length; i++) {
      var item = items[i];
      var sequence = item.type === "hidden" && (item.name === "cards" || item.getAttribute("data-chip"));
      if (!item.name || item.tagName === "BUTTON" || (item.type === "hidden" && !sequence)) { continue; }
      var twin = into.querySelector("[name='" + item.name + "']" + (item.type === "checkbox" ? "[value='" + item.value + "']" : ""));
      if (!twin) { continue; }
      if (item.type === "checkbox") { twin.checked = item.checked; } else { twin.value = item.value; }
    }
    var row = form.querySelector(".row span");
    if (row && into.querySelector(".row span")) { into.querySelector(".row span").textContent = row.textContent; }
    var picked = form.querySelectorAll("button.pick[disabled]");
    for (var j = 0; j < picked.length; j++) {
      var same = into.querySelector("button.pick[value='" + picked[j].value + "']");
      if (same) { same.disabled = true; }
    }
    var boxes = into.querySelectorAll("fieldset.chips");
    for (var k = 0; k < boxes.length; k++) { drawChips(boxes[k]); }
  }
  function settled(result, form, asked) {
    answer(result, form, asked);
    // A refused input keeps what was entered, to be put right: into the redrawn form, or the
    // one the next redraw brings.
    if (!result.ok && form) {
      if (document.body.contains(form)) { form.setAttribute("data-touched", "1"); } else { carry(form, document.body); }
    }
    if (document.activeElement && document.activeElement.blur) { document.activeElement.blur(); }
    for (var id in held) { if (held.hasOwnProperty(id)) { replace(id, held[id]); } }
  }
  // The scoreboard reads its picture over plain HTTP while the live socket has no room for it.
  var looking = null;
  function look() {
    var xhr = new XMLHttpRequest();
    xhr.open("GET", "/api/board?v=" + (document.body.getAttribute("data-version") || ""));
    xhr.onload = function () {
      if (xhr.status !== 200 || !looking) { return; }
      try { show(JSON.parse(xhr.responseText)); } catch (e) { /* the next look tries again */ }
    };
    xhr.send();
  }
  function show(frame) {
    // The table speaks another language now: the whole page is drawn again in it.
    if (frame.lang && frame.lang !== document.documentElement.lang) { window.location.reload(); return; }
    if (frame["public"] !== undefined) { replace("public", frame["public"]); }
    if (frame["private"] !== undefined) { replace("private", frame["private"]); }
    if (frame.host !== undefined) { replace("host", frame.host); }
    document.body.setAttribute("data-version", frame.v);
    // "live" once the page shows the table as it is now (after a restart: its new join code).
    say(words.live);
  }
  function connect() {
    if (page === "home") { return; }
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + window.location.host + "/live?page=" + page);
    var ping = null;
    socket.onopen = function () {
      retry = 500;
      if (looking) { clearInterval(looking); looking = null; }
      ping = setInterval(function () { socket.send("ping"); }, 25000);
    };
    socket.onmessage = function (message) { show(JSON.parse(message.data)); };
    socket.onclose = function (event) {
      if (ping) { clearInterval(ping); }
      if (event.code === 4401) { window.location.replace(page === "host" ? "/join?host" : "/join"); return; }
      if (event.code === 1013) { retry = 5000; }  // no room for this page now: try again later
      if (page === "board" && !looking) { looking = setInterval(look, 2000); look(); }
      say(words.reconnecting);
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 5000);
    };
  }
  // -- your turn: a highlight (drawn by the server), a buzz where the phone allows it ------
  function yours() {
    var mine = document.getElementById("private");
    return !!(mine && mine.className.indexOf("turn") >= 0);
  }
  var wasYours = yours();
  function turn() {
    var now = yours();
    if (now && !wasYours && navigator.vibrate) {
      try { navigator.vibrate([150, 80, 150]); } catch (e) { /* a browser may refuse it */ }
    }
    wasYours = now;
  }

  // -- the screen stays awake while this player is in a game (where the browser allows it) --
  var lock = null;
  var asking = false;
  function awake() {
    var mine = document.getElementById("private");
    var wanted = !!(mine && mine.hasAttribute("data-playing")) && document.visibilityState === "visible";
    if (!wanted && lock) {
      var held = lock;
      lock = null;
      held.release();
      return;
    }
    if (!wanted || lock || asking || !navigator.wakeLock || !navigator.wakeLock.request) { return; }
    asking = true;
    navigator.wakeLock.request("screen").then(function (got) {
      asking = false;
      lock = got;
      got.addEventListener("release", function () { if (lock === got) { lock = null; } });
      awake();  // the game may have ended while the lock was being asked for
    }, function () { asking = false; });
  }
  // A hidden page loses its lock: it is asked for again when the page is shown.
  document.addEventListener("visibilitychange", awake);
  ownRefusal();
  awake();
  connect();
})();
