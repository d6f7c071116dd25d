// The table page: keeps the view in step with the server and wires the hand's interactions.
// The server renders every view per viewer. After each change it pushes this player's own view
// over the WebSocket, marked with the version it moves the page from and to; the page swaps it
// in when it shows the "from" version, and re-fetches its view over HTTP when it does not (a
// missed push) or after a reconnect (the server then says only "version N"). Drag and drop
// (SortableJS) and Sort post the arrangement to the server.
(function () {
  "use strict";

  function root() { return document.getElementById("table-root"); }
  function shownVersion() {
    const el = root();
    return el ? parseInt(el.dataset.version || "-1", 10) : -1;
  }
  let dragging = false;
  let refetchPending = false;
  function refetch() {
    const el = root();
    if (!el || !window.htmx) return;
    // Never swap the hand away under a card being dragged: fetch once the drop is done.
    if (dragging) { refetchPending = true; return; }
    htmx.ajax("GET", el.dataset.viewUrl, { target: "#table-root", swap: "outerHTML" });
  }

  // A push is a tiny fragment carrying the new version: <div id="table-sync" data-version="N">.
  // Re-fetch this viewer's own view when the server moved past what the page shows.
  document.addEventListener("htmx:wsAfterMessage", function (evt) {
    const text = String(evt.detail.message || "");
    const match = text.match(/id="table-sync"[^>]*data-version="(\d+)"/);
    if (match) {
      const pushed = parseInt(match[1], 10);
      if (pushed > shownVersion()) refetch();
      // Tells a watcher (and the browser tests) that the live channel is up and in step.
      document.documentElement.dataset.liveVersion = String(pushed);
    }
    if (text.indexOf('id="lobby-sync"') !== -1) {
      const lobby = document.getElementById("lobby-tables");
      if (lobby) htmx.ajax("GET", lobby.dataset.url, { target: "#lobby-tables", swap: "outerHTML" });
    }
  });
  // On every (re)connection the server first sends its current version, so a gap while the
  // socket was down is caught by the handler above.

  // A pushed view: <div id="table-push" data-from="A" data-version="B" hidden></div> and then
  // the table partial rendered for this viewer.
  let pendingView = null;
  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    const text = String(evt.detail.message || "");
    if (text.indexOf('id="table-push"') === -1) return;
    evt.preventDefault();  // swapped here, in step with the version and a drag in progress
    const box = document.createElement("div");
    box.innerHTML = text;
    const marker = box.querySelector("#table-push");
    const from = parseInt(marker.dataset.from, 10);
    const to = parseInt(marker.dataset.version, 10);
    document.documentElement.dataset.liveVersion = String(to);
    const shown = shownVersion();
    if (to <= shown) return;
    if (from !== shown) { pendingView = null; refetch(); return; }  // a push was missed
    if (dragging) { pendingView = box; return; }  // applied when the card is dropped
    applyView(box);
  });
  function applyView(box) {
    const fresh = box.querySelector("#table-root");
    const current = root();
    if (!fresh || !current) { refetch(); return; }
    current.replaceWith(fresh);
    const balance = box.querySelector("#header-balance");
    const oldBalance = document.getElementById("header-balance");
    if (balance && oldBalance) {
      balance.removeAttribute("hx-swap-oob");
      oldBalance.replaceWith(balance);
    }
    htmx.process(fresh);
    wire();
  }

  // Plain (non-htmx) forms in a pushed view carry no CSRF field: add the page's token.
  document.addEventListener("submit", function (evt) {
    const form = evt.target;
    if (!(form instanceof HTMLFormElement) || (form.method || "").toLowerCase() !== "post") return;
    if (form.querySelector("input[name=csrfmiddlewaretoken]")) return;
    let token = "";
    try { token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; } catch (e) { return; }
    if (!token) return;
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = "csrfmiddlewaretoken";
    input.value = token;
    form.appendChild(input);
  }, true);

  // --- countdown -----------------------------------------------------------------------------
  function tick() {
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      const deadline = parseFloat(el.dataset.deadline);
      if (!deadline) return;
      const left = Math.max(0, Math.round(deadline - Date.now() / 1000 - (window.rummyClockSkew || 0)));
      el.textContent = left + "s";
      el.classList.toggle("urgent", left <= 10);
    });
  }
  setInterval(tick, 500);

  // --- the hand: selection, drag and drop, arrangement ------------------------------------------
  function selectedCodes() {
    return Array.from(document.querySelectorAll("#my-hand .pcard.selected")).map(function (c) { return c.dataset.code; });
  }
  function currentGroups() {
    return Array.from(document.querySelectorAll("#my-hand .group")).map(function (g) {
      // Skip the floating copy SortableJS shows under the pointer while dragging.
      return Array.from(g.querySelectorAll(".pcard:not(.sortable-fallback)")).map(function (c) { return c.dataset.code; });
    }).filter(function (g) { return g.length > 0; });
  }
  // Where the one selected card sits: its group and index among the non-empty groups, the
  // same numbering as the arrangement the server holds (with two packs a hand can hold two
  // copies of a card, so the code alone does not say which copy the player means).
  function selectedPlace() {
    const groups = Array.from(document.querySelectorAll("#my-hand .group")).map(function (g) {
      return Array.from(g.querySelectorAll(".pcard:not(.sortable-fallback)"));
    }).filter(function (g) { return g.length > 0; });
    for (let gi = 0; gi < groups.length; gi++) {
      for (let ci = 0; ci < groups[gi].length; ci++) {
        if (groups[gi][ci].classList.contains("selected")) return { group: gi, index: ci };
      }
    }
    return null;
  }
  function syncForms() {
    const sel = selectedCodes();
    const place = sel.length === 1 ? selectedPlace() : null;
    const groups = JSON.stringify(currentGroups());
    document.querySelectorAll("[data-needs-selection]").forEach(function (btn) {
      const need = parseInt(btn.dataset.needsSelection, 10);
      btn.disabled = need === 1 ? sel.length !== 1 : sel.length < need;
    });
    document.querySelectorAll("input[name=card], input[name=finish_card]").forEach(function (input) {
      input.value = sel.length === 1 ? sel[0] : "";
    });
    document.querySelectorAll("input[name=group]").forEach(function (input) { input.value = place ? place.group : ""; });
    document.querySelectorAll("input[name=index]").forEach(function (input) { input.value = place ? place.index : ""; });
    document.querySelectorAll("input[name=cards]").forEach(function (input) { input.value = sel.join(" "); });
    document.querySelectorAll("input[name=melds]").forEach(function (input) { input.value = JSON.stringify([sel]); });
    document.querySelectorAll("input[name=groups]").forEach(function (input) {
      // A show sends the 13 other cards: the selected one goes to the finish slot.
      if (input.form && input.form.querySelector("input[name=finish_card]") && place) {
        // The very copy selected goes to the finish slot, never its twin inside a meld.
        const rest = currentGroups().map(function (g, gi) {
          return g.filter(function (code, ci) { return !(gi === place.group && ci === place.index); });
        }).filter(function (g) { return g.length > 0; });
        input.value = JSON.stringify(rest);
      } else {
        input.value = groups;
      }
    });
  }
  function postArrangement() {
    const form = document.getElementById("arrange-form");
    if (!form) return;
    syncForms();
    form.requestSubmit();
  }

  // --- classic: Sort orders the hand by rank (sets) or by suit (runs), in this browser only ---
  // Classic rummy keeps no arrangement on the server: the page shows the hand by suit, and the
  // player's choice is remembered here and applied again after every re-fetch.
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const SUITS = ["S", "H", "C", "D"];
  function sortOrder() {
    try { return window.localStorage.getItem("rummy.classicSort") || "suit"; } catch (e) { return "suit"; }
  }
  function applySort(order) {
    const button = document.getElementById("sort-hand");
    const group = document.querySelector("#my-hand .group");
    if (!button || !group) return;
    const key = function (card) {
      const code = card.dataset.code || "";
      const rank = RANKS.indexOf(code.slice(0, -1));
      const suit = SUITS.indexOf(code.slice(-1));
      return order === "rank" ? rank * 10 + suit : suit * 100 + rank;
    };
    Array.from(group.querySelectorAll(".pcard"))
      .sort(function (a, b) { return key(a) - key(b); })
      .forEach(function (card) { group.insertBefore(card, group.querySelector(".group-kind")); });
    // The button offers the other order.
    button.dataset.sort = order === "rank" ? "suit" : "rank";
    button.textContent = order === "rank" ? "Sort by suit" : "Sort by rank";
  }
  document.addEventListener("click", function (evt) {
    const button = evt.target.closest ? evt.target.closest("#sort-hand") : null;
    if (!button) return;
    const order = button.dataset.sort === "suit" ? "suit" : "rank";
    try { window.localStorage.setItem("rummy.classicSort", order); } catch (e) { /* private mode */ }
    applySort(order);
  });

  function wire() {
    if (document.getElementById("sort-hand")) applySort(sortOrder());
    const hand = document.getElementById("my-hand");
    if (!hand || hand.dataset.wired === "true") { syncForms(); return; }
    hand.dataset.wired = "true";
    hand.querySelectorAll(".pcard").forEach(function (card) {
      card.addEventListener("click", function () {
        card.classList.toggle("selected");
        syncForms();
      });
    });
    if (window.Sortable && hand.dataset.draggable === "true") {
      hand.querySelectorAll(".group").forEach(function (group) {
        Sortable.create(group, {
          group: "hand",
          animation: 120,
          draggable: ".pcard",
          forceFallback: true,  // pointer events: the same on phones, tablets and desktops
          fallbackOnBody: true,
          onStart: function () { dragging = true; },
          onEnd: function (evt) {
            dragging = false;
            if (evt.from !== evt.to || evt.oldIndex !== evt.newIndex) {
              refetchPending = false;  // the answer to the arrangement is the fresh view
              pendingView = null;
              setTimeout(postArrangement, 0);
            } else if (pendingView) {
              const box = pendingView;
              pendingView = null;
              if (refetchPending) { refetchPending = false; refetch(); } else { applyView(box); }
            } else if (refetchPending) {
              refetchPending = false;
              refetch();
            }
          },
        });
      });
    }
    syncForms();
    tick();
  }
  // Plain forms that ask first (the CSP allows no inline onsubmit): data-confirm="question".
  document.addEventListener("submit", function (evt) {
    const form = evt.target;
    if (form && form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      evt.preventDefault();
    }
  }, true);
  document.addEventListener("DOMContentLoaded", wire);
  document.addEventListener("htmx:afterSettle", wire);
  // Keep hidden inputs in step right before any form leaves the page.
  document.addEventListener("htmx:configRequest", function (evt) {
    const form = evt.detail.elt;
    if (form && form.tagName === "FORM" && form.closest("#table-root")) {
      syncForms();
      const data = new FormData(form);
      data.forEach(function (value, key) { evt.detail.parameters[key] = value; });
    }
  });
})();
