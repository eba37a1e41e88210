// The track's script: when the live picture is replaced, each horse that moved walks from
// where it stood through the squares its move passed (the server lists them on the horse
// as data-path), with the Web Animations API; and a celebration is shown once, not at every
// redraw. Between races and at a game's end, the TV shows the winner screen in place of the
// track once the last move has been walked and cheered (the picture is marked "told"); a
// picture that shows the same result again is told at once. Nothing runs between updates;
// with reduced motion asked for, horses just stand and the winner screen comes at once.
(function () {
  "use strict";
  var STEP_MS = 170;
  var MOST_MS = 1800;
  var CHEER_MS = 1600;
  var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function point(text) {
    var xy = text.split(",");
    return [parseFloat(xy[0]), parseFloat(xy[1])];
  }
  function standing(horse) {
    return [parseFloat(horse.getAttribute("data-x")), parseFloat(horse.getAttribute("data-y"))];
  }
  function frame(p) { return {transform: "translate(" + p[0] + "px," + p[1] + "px)"}; }

  // How long the horses of the new picture walk (0 when nobody walks).
  function walk(old, fresh) {
    var longest = 0;
    if (still || !Element.prototype.animate) { return longest; }
    var horses = fresh.querySelectorAll("g.horse");
    for (var i = 0; i < horses.length; i++) {
      var horse = horses[i];
      var name = horse.getAttribute("data-horse");
      var was = old.querySelector("g.horse[data-horse='" + name + "']");
      if (!was) { continue; }
      var from = standing(was);
      var to = standing(horse);
      if (from[0] === to[0] && from[1] === to[1]) { continue; }
      var stops = [from];
      var path = horse.getAttribute("data-path");
      // The move's own squares only when it started where the horse stood (not after undo).
      if (path && horse.getAttribute("data-from") === was.getAttribute("data-square")) {
        var passed = path.split(" ");
        for (var j = 0; j < passed.length; j++) { stops.push(point(passed[j])); }
      } else {
        stops.push(to);
      }
      var frames = [];
      for (var k = 0; k < stops.length; k++) { frames.push(frame(stops[k])); }
      var duration = Math.min(MOST_MS, STEP_MS * (stops.length - 1));
      horse.animate(frames, {duration: duration, easing: "linear"});
      longest = Math.max(longest, duration);
    }
    return longest;
  }

  // The winner screen of the picture shown now: told (the track gives way to it).
  var told = null;
  var waiting = null;
  function tell() {
    waiting = null;
    var shown = document.getElementById("public");
    var result = shown && shown.querySelector(".result");
    if (!result) { return; }
    told = result.getAttribute("data-result");
    shown.className += " told";
  }
  function tellAfter(fresh, walking) {
    var result = fresh.querySelector(".result");
    if (!result) { return; }
    if (result.getAttribute("data-result") === told || still) {
      told = result.getAttribute("data-result");
      fresh.className += " told";
    } else if (waiting === null) {
      waiting = window.setTimeout(tell, walking + CHEER_MS);
    }
  }

  function cheerOnce(old, fresh) {
    var cheer = fresh.querySelector(".cheer");
    if (!cheer) { return; }
    var before = old.querySelector(".cheer");
    if (before && before.getAttribute("data-cheer") === cheer.getAttribute("data-cheer")) {
      cheer.className += " seen";
    }
  }

  var live = document.getElementById("live");
  if (!live || !window.MutationObserver) { return; }
  new MutationObserver(function (records) {
    for (var i = 0; i < records.length; i++) {
      var record = records[i];
      var old = null, fresh = null;
      for (var j = 0; j < record.removedNodes.length; j++) {
        if (record.removedNodes[j].id === "public") { old = record.removedNodes[j]; }
      }
      for (var k = 0; k < record.addedNodes.length; k++) {
        if (record.addedNodes[k].id === "public") { fresh = record.addedNodes[k]; }
      }
      if (old && fresh) {
        tellAfter(fresh, walk(old, fresh));
        cheerOnce(old, fresh);
      }
    }
  }).observe(live, {childList: true});
  // The first picture of a page already shown: its celebration is not news, its result is.
  var first = live.querySelector(".cheer");
  if (first) { first.className += " seen"; }
  tell();
})();
