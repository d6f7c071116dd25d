// The table page's sounds (small tones made in the page with Web Audio, with a mute switch per
// player) and what just happened, said to screen readers, sounded, the turn announced. Used by
// table.js, which is loaded after this.
(function () {
  "use strict";

  // --- sounds: small tones made in the page (Web Audio), with a mute switch per player ------
  function root() { return document.getElementById("table-root"); }
  let audio = null;
  function soundKey() {
    const r = root();
    return "rummy.sound." + ((r && r.dataset.player) || "guest");
  }
  function soundOn() {
    try { return window.localStorage.getItem(soundKey()) !== "off"; } catch (e) { return true; }
  }
  const TONES = {
    turn: [[660, 0, 0.12], [880, 0.14, 0.16]],
    hurry: [[440, 0, 0.09], [440, 0.16, 0.09], [440, 0.32, 0.09]],
    discard: [[520, 0, 0.08], [390, 0.09, 0.1]],
  };
  function sound(name) {
    if (!soundOn() || !TONES[name]) return;
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      audio = audio || new Ctx();
      if (audio.state === "suspended") audio.resume();
      const start = audio.currentTime + 0.02;
      TONES[name].forEach(function (tone) {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.frequency.value = tone[0];
        gain.gain.setValueAtTime(0.0001, start + tone[1]);
        gain.gain.exponentialRampToValueAtTime(0.18, start + tone[1] + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + tone[1] + tone[2]);
        osc.connect(gain).connect(audio.destination);
        osc.start(start + tone[1]);
        osc.stop(start + tone[1] + tone[2] + 0.02);
      });
      document.documentElement.dataset.lastSound = name;  // for the browser tests
    } catch (e) { /* no audio here */ }
  }
  function showSoundSwitch() {
    const button = document.getElementById("sound-toggle");
    if (!button) return;
    const on = soundOn();
    button.setAttribute("aria-pressed", on ? "true" : "false");
    // The words come from the page, in the player's language (data-label-on, data-title-off...).
    const d = button.dataset;
    button.textContent = on ? (d.labelOn || "Sound on") : (d.labelOff || "Sound off");
    button.title = on
      ? (d.titleOn || "Sounds on: your turn, 10 seconds left, a card discarded to you (M)")
      : (d.titleOff || "Sounds off (M)");
  }
  function toggleSound() {
    try { window.localStorage.setItem(soundKey(), soundOn() ? "off" : "on"); } catch (e) { /* private mode */ }
    showSoundSwitch();
  }
  document.addEventListener("click", function (evt) {
    if (evt.target.closest && evt.target.closest("#sound-toggle")) toggleSound();
  });

  // --- what just happened: said to screen readers, sounded, the turn announced --------------
  let seenMove = null;
  let wasMyTurn = null;
  function announce() {
    const r = root();
    if (!r) return;
    const line = document.getElementById("last-move");
    const version = line && line.dataset.version ? line.dataset.version : "";
    const myTurn = r.dataset.myTurn === "true";
    const words = [];
    if (seenMove !== null && version && version !== seenMove) {
      words.push(line.textContent.trim());
      if (myTurn && line.dataset.kind === "discard") sound("discard");
    }
    if (myTurn && wasMyTurn === false) {
      const announcer = document.getElementById("table-announcer");
      words.push((announcer && announcer.dataset.yourTurn) || "Your turn.");
      setTimeout(function () { sound("turn"); }, 250);
    }
    seenMove = version || seenMove || "";
    wasMyTurn = myTurn;
    const box = document.getElementById("table-announcer");
    if (box && words.length) box.textContent = words.join(" ");
  }

  window.RummySounds = { sound: sound, showSoundSwitch: showSoundSwitch, announce: announce };
})();
