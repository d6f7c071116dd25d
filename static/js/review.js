// The deal review (My games): one move at a time, with buttons and the keyboard
// (left/right arrows, Home, End). Without JavaScript every move stays listed.
(function () {
  "use strict";
  function start() {
    var list = document.getElementById("review-steps");
    var controls = document.getElementById("review-controls");
    if (!list || !controls) return;
    var steps = Array.prototype.slice.call(list.querySelectorAll(".review-step"));
    if (!steps.length) return;
    var position = document.getElementById("review-position");
    var panel = document.getElementById("review-hand-panel");
    // Each move lists the hand only where it changed: the panel shows the latest one.
    list.classList.add("one-at-a-time");
    var current = 0;
    function show(i) {
      current = Math.max(0, Math.min(steps.length - 1, i));
      steps.forEach(function (step, k) { step.hidden = k !== current; });
      position.textContent = steps[current].querySelector(".step-title").textContent;
      var hand = null;
      for (var k = current; k >= 0 && !hand; k--) hand = steps[k].querySelector(".review-hand");
      if (panel) {
        panel.innerHTML = hand ? hand.innerHTML : "";
        panel.hidden = !hand;
      }
      document.getElementById("review-prev").disabled = current === 0;
      document.getElementById("review-first").disabled = current === 0;
      document.getElementById("review-next").disabled = current === steps.length - 1;
      document.getElementById("review-last").disabled = current === steps.length - 1;
      if (window.location.hash !== "#" + steps[current].id) {
        history.replaceState(null, "", "#" + steps[current].id);
      }
    }
    controls.hidden = false;
    document.getElementById("review-prev").addEventListener("click", function () { show(current - 1); });
    document.getElementById("review-next").addEventListener("click", function () { show(current + 1); });
    document.getElementById("review-first").addEventListener("click", function () { show(0); });
    document.getElementById("review-last").addEventListener("click", function () { show(steps.length - 1); });
    document.addEventListener("keydown", function (event) {
      var tag = (event.target && event.target.tagName) || "";
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === "ArrowRight") { show(current + 1); event.preventDefault(); }
      else if (event.key === "ArrowLeft") { show(current - 1); event.preventDefault(); }
      else if (event.key === "Home") { show(0); event.preventDefault(); }
      else if (event.key === "End") { show(steps.length - 1); event.preventDefault(); }
    });
    var hashed = steps.findIndex(function (step) { return "#" + step.id === window.location.hash; });
    show(hashed >= 0 ? hashed : 0);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
