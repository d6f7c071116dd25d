// The table's socket (docs/table-socket.md): the frames the server sends, told apart by "t",
// applied to the page (table.js); catching up on missed frames ("since"); and the player's
// actions sent as "move" messages, answered "ack" or "refused", with the form's POST as the
// fallback when the socket is not open or does not answer in time.
(function () {
  "use strict";
  const T = window.RummyTable;
  if (!T) return;

  function shownGame() {
    const el = T.felt();
    return el && el.dataset.game ? parseInt(el.dataset.game, 10) : null;
  }

  // --- the table's socket (docs/table-socket.md): every frame is a JSON object with "t" ---
  // "newest": the newest version the socket has told of (a view loaded over HTTP meanwhile may
  // be older than the frames applied while it loaded: the page then catches up from it).
  const live = { socket: null, open: false, counter: 0, pending: {}, since: null, newest: -1 };
  function heard(version) {
    if (typeof version === "number" && version > live.newest) live.newest = version;
  }
  const MOVE_WAIT_MS = 5000;  // no answer by then: the move goes over HTTP
  const SINCE_WAIT_MS = 3000;  // no catch-up by then: the page loads its view
  // The page is behind (a missed frame, or a reconnect): ask the socket for what it missed,
  // or load the view over HTTP when the socket is not open.
  function catchUp() {
    if (!live.open) { T.refetch(); return; }
    if (live.since !== null) return;  // one catch-up at a time
    live.since = setTimeout(function () { caughtUp(); T.refetch(); }, SINCE_WAIT_MS);
    document.documentElement.dataset.catchingUp = "on";  // for a watcher and the browser tests
    live.socket.sendImmediately(JSON.stringify({ t: "since", v: T.shownVersion(), g: shownGame() }));
  }
  function caughtUp() {
    if (live.since !== null) { clearTimeout(live.since); live.since = null; }
    delete document.documentElement.dataset.catchingUp;
  }
  const FRAMES = {
    sync: function (f) {
      heard(f.v);
      // Tells a watcher (and the browser tests) that the live channel is up and in step.
      document.documentElement.dataset.liveVersion = String(f.v);
      caughtUp();
      if (f.v > T.shownVersion()) catchUp();
    },
    refetch: function () { caughtUp(); T.refetch(); },
    felt: function (f) {
      heard(f.v);
      document.documentElement.dataset.liveVersion = String(f.v);
      const shown = T.shownVersion();
      if (f.v <= shown) return;
      if (f.from !== shown) { catchUp(); return; }  // a frame was missed
      if (f.html === null) {
        T.felt().dataset.version = String(f.v);
        T.settled();
        return;
      }
      const box = T.frame(f.html);
      box.dataset.version = String(f.v);
      if (T.held("felt", box)) return;  // applied when the card is dropped
      T.applyFelt(box);
    },
    seat: function (f) {
      if (f.v < T.seatVersion()) return;
      const box = T.frame(f.html);
      if (T.held("seat", box)) return;
      T.applySeat(box);
    },
    presence: function (f) { T.showPresence(String(f.seat), f.online === true); },
    ack: function (f) { heard(f.v); settle(f.a, "ack", ""); },
    refused: function (f) {
      settle(f.a, "refused", String(f.code || ""));
      if (f.code === "stale") { catchUp(); return; }
      if (f.html) { T.applySeat(T.frame(f.html)); return; }
      notice(f.text);
    },
  };
  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    if (!T.root()) return;
    let f;
    try { f = JSON.parse(String(evt.detail.message || "")); } catch (e) { return; }
    if (!f || typeof f.t !== "string" || !FRAMES[f.t]) return;
    evt.preventDefault();
    FRAMES[f.t](f);
  });
  // A reason with no parts to show it in (too many messages, a message the server could not read).
  function notice(text) {
    const el = document.getElementById("live-notice");
    if (!el || !text) return;
    el.textContent = text;
    el.hidden = false;
    setTimeout(function () { el.hidden = true; }, 4000);
  }

  // An action form of the player's (pick, discard, declare, arrange...) goes as a message on
  // the socket when it is open, answered by "ack" or "refused"; with no answer in time, or
  // with the socket closed, it goes as the form's POST (the same service, the same answers).
  function settle(counter, answer, code) {
    const pending = live.pending[counter];
    if (!pending) return;
    clearTimeout(pending.timer);
    delete live.pending[counter];
    // What the server said to the page's last action (for a watcher, and the browser tests).
    const marks = document.documentElement.dataset;
    marks.liveAction = pending.action;
    marks.liveAnswer = answer;
    marks.liveCode = code;
    marks.liveAcked = String(counter);
  }
  function overHttp(form) {
    if (!document.contains(form)) return;  // the view moved on: the player acts again on it
    form.dataset.viaHttp = "1";
    form.requestSubmit();
  }
  document.addEventListener("htmx:beforeRequest", function (evt) {
    const form = evt.detail.elt;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains("act")) return;
    if (form.dataset.viaHttp) { delete form.dataset.viaHttp; return; }  // the fallback itself
    if (!live.open) return;
    evt.preventDefault();
    const fields = {};
    new FormData(form).forEach(function (value, key) {
      if (key !== "csrfmiddlewaretoken") fields[key] = String(value);
    });
    // The newest version the page shows, as the POST sends it (table.js, htmx:configRequest).
    const newest = Math.max(T.shownVersion(), T.seatVersion());
    if (fields.version !== undefined && newest >= 0) fields.version = String(newest);
    live.counter += 1;
    const counter = live.counter;
    live.pending[counter] = {
      form: form,
      action: fields.action,
      timer: setTimeout(function () { delete live.pending[counter]; overHttp(form); }, MOVE_WAIT_MS),
    };
    live.socket.sendImmediately(JSON.stringify({ t: "move", a: counter, d: fields }));
  });

  // A view loaded over HTTP (a re-fetch) that is older than frames the socket applied while it
  // loaded would hide them: the page asks for what it missed since the view it now shows.
  document.addEventListener("htmx:afterSettle", function () {
    if (!live.open || !T.root()) return;
    if (T.shownVersion() >= 0 && T.shownVersion() < live.newest) catchUp();
  });

  // While the socket is down (the network, or the server's Redis), nothing is pushed: the page
  // re-fetches its view every few seconds until the socket is back (the extension reconnects
  // by itself), so play goes on over HTTP. A socket closed because the session ended (4401)
  // reloads the page, which asks for a log-in when the session is gone.
  const POLL_MS = 3000;
  let poller = null;
  document.addEventListener("htmx:wsClose", function (evt) {
    live.open = false;
    caughtUp();
    // Moves sent and not answered go over HTTP now (one already applied is refused there as
    // stale, and the page catches up).
    Object.keys(live.pending).forEach(function (counter) {
      const pending = live.pending[counter];
      clearTimeout(pending.timer);
      delete live.pending[counter];
      overHttp(pending.form);
    });
    const code = evt.detail && evt.detail.event ? evt.detail.event.code : 0;
    if (code === 4401 && T.root()) { window.location.reload(); return; }
    if (poller === null && T.root()) {
      poller = setInterval(T.refetch, POLL_MS);
      document.documentElement.dataset.livePolling = "on";
    }
  });
  document.addEventListener("htmx:wsOpen", function (evt) {
    live.socket = evt.detail.socketWrapper;
    live.open = true;
    if (poller !== null) { clearInterval(poller); poller = null; }
    document.documentElement.dataset.livePolling = "off";
    if (document.hidden) tellVisibility();  // a socket opens counted as in view
  });

  // Whether this tab is in view: a turn comes as a notice (Web Push, docs/push.md) only to a
  // player with no page of the table in view.
  function tellVisibility() {
    if (!live.open || !T.root()) return;
    live.socket.sendImmediately(JSON.stringify({ t: "visibility", hidden: document.hidden }));
    document.documentElement.dataset.liveHidden = String(document.hidden);
  }
  document.addEventListener("visibilitychange", tellVisibility);
})();
