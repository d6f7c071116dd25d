// The table page: keeps the view in step with the server, plays the player's actions over the
// table's socket, and wires the hand's interactions (drag and drop with SortableJS, Sort).
(function () {
  "use strict";

  // The page is one shared felt (#felt-root: the same for every viewer) with the viewer's own
  // parts in its places (#seat-top, #my-area, #seat-foot: hand, actions, notices). The table's
  // socket carries JSON frames told apart by "t" (docs/table-socket.md): after every change a
  // "felt" frame with the versions it moves the page from and to and the whole felt, or only
  // the regions of it that changed (elements with the ids of the ones they replace: a seat,
  // the decks, the clock, the open deck's history...), or nothing when nothing shown changed;
  // and a "seat" frame with this player's parts when they changed. The page applies a felt
  // when it shows the "from" version, and otherwise asks the socket for the frames it missed
  // ("since"), or loads its view over HTTP when they are no longer kept. The player's actions
  // go on the same socket ("move", answered "ack" or "refused"), or as the form's POST when
  // the socket is not open. The page turns the felt for its viewer: the ring with the viewer
  // at the bottom, "You" in the lines about the viewer, the viewer's marks.
  const PARTS = ["seat-top", "my-area", "seat-foot"];
  function root() { return document.getElementById("table-root"); }
  function felt() { return document.getElementById("felt-root"); }
  function seatTop() { return document.getElementById("seat-top"); }
  function shownVersion() {
    const el = felt();
    return el ? parseInt(el.dataset.version || "-1", 10) : -1;
  }
  function seatVersion() {
    const el = seatTop();
    return el && el.dataset.version ? parseInt(el.dataset.version, 10) : -1;
  }
  let dragging = false;
  let refetchPending = false;
  let pendingFelt = null;
  let pendingSeat = null;
  const parked = {};  // parts pushed before the felt that has their places
  function refetch() {
    const el = root();
    if (!el || !window.htmx) return;
    // Never swap the hand away under a card being dragged: fetch once the drop is done.
    if (dragging) { refetchPending = true; return; }
    pendingFelt = null;
    pendingSeat = null;
    Object.keys(parked).forEach(function (id) { delete parked[id]; });
    htmx.ajax("GET", el.dataset.viewUrl, { target: "#table-root", swap: "outerHTML" });
  }

  function frame(text) {
    const box = document.createElement("div");
    box.innerHTML = text || "";
    return box;
  }
  function applyFelt(box) {
    const fresh = box.querySelector("#felt-root");
    const current = felt();
    if (!current) { refetch(); return; }
    if (!fresh) { applyRegions(box, current); return; }
    carryOver(current, fresh);
    keepingFocus(function () {
      PARTS.forEach(function (id) {
        const place = fresh.querySelector("#" + id);
        if (!place) return;
        const part = parked[id] || document.getElementById(id);
        delete parked[id];
        if (part) place.replaceWith(part);
      });
      current.replaceWith(fresh);
      htmx.process(fresh);
    });
    settled();
  }
  // Moving the player's parts (or swapping what holds the focus) blurs it: focus it again.
  function keepingFocus(swap) {
    const active = document.activeElement;
    swap();
    if (active && active !== document.activeElement && document.contains(active)) {
      active.focus({ preventScroll: true });
    }
  }
  // Only the regions that changed: each replaces the element with its id (the page shows the
  // rest as it is at the "from" version).
  function applyRegions(box, current) {
    const regions = Array.from(box.children);
    if (regions.some(function (el) { return !el.id || !current.querySelector("#" + el.id); })) {
      refetch();  // a place this page does not have: it is not at the "from" version
      return;
    }
    carryOver(current, box);
    keepingFocus(function () {
      regions.forEach(function (el) {
        current.querySelector("#" + el.id).replaceWith(el);
        htmx.process(el);
      });
    });
    current.dataset.version = box.dataset.version;
    settled();
  }
  function applySeat(box) {
    // A hand pushed again as it was (the same cards in the same places: another part of it
    // changed) keeps the player's selection: the player presses Discard next.
    const chosen = selectedCodes();
    const before = handCodes();
    const balance = box.querySelector("#header-balance");
    const oldBalance = document.getElementById("header-balance");
    if (balance && oldBalance) {
      balance.removeAttribute("hx-swap-oob");
      oldBalance.replaceWith(balance);
    }
    PARTS.forEach(function (id) {
      const part = box.querySelector("#" + id);
      if (!part) return;
      part.removeAttribute("hx-swap-oob");
      const old = document.getElementById(id);
      if (old) { old.replaceWith(part); htmx.process(part); } else { parked[id] = part; }
    });
    if (chosen.length && handCodes() === before) reselect(chosen);
    // The actions alone, when the hand above them did not change.
    const actions = box.querySelector("#my-area") ? null : box.querySelector("#my-actions");
    if (actions) {
      const old = document.getElementById("my-actions");
      if (!old) { refetch(); return; }
      actions.removeAttribute("hx-swap-oob");
      old.replaceWith(actions);
      htmx.process(actions);
    }
    settled();
  }
  function settled() {
    personalise();
    const shown = felt();
    if (shown) document.documentElement.dataset.settled = shown.dataset.version;
    reopenDetails();
    showSheet();
    wire();
    tick();  // the timers and the ring of what was just swapped in, at once
  }

  // The felt as this viewer sees it: the viewer's seat at the bottom, the viewer's marks, and
  // the lines about the viewer said to them ("You took 6♠...").
  function personalise() {
    const r = root();
    const f = felt();
    if (!r || !f) return;
    const top = seatTop();
    if (top) {
      r.dataset.mySeat = top.dataset.mySeat || "";
      r.dataset.myTurn = top.dataset.myTurn || "false";
      if (top.dataset.myDeadline) r.dataset.myDeadline = top.dataset.myDeadline; else delete r.dataset.myDeadline;
    }
    r.dataset.version = f.dataset.version;  // the version the page shows
    const mine = r.dataset.mySeat || "";
    f.querySelectorAll("[data-seat]").forEach(function (el) {
      const me = mine !== "" && el.dataset.seat === mine;
      if (el.matches(".seat, .sheet-row, .seat-list li")) el.classList.toggle("me", me);
      if (me && el.dataset.you) el.textContent = el.dataset.you;
    });
    const seats = Array.from(f.querySelectorAll("#felt > .seat"));
    // The seat that made the move the page just received flashes (the felt's line says who).
    const line = document.getElementById("last-move");
    const mover = line && line.classList.contains("fresh") ? line.dataset.mover : undefined;
    seats.forEach(function (el) {
      el.classList.toggle("just-moved", mover !== undefined && el.dataset.seat === mover);
    });
    // The places for this many seats come with the felt (data-slots, from the bottom on,
    // clockwise: the server's one table of them); the page turns them for its viewer.
    const ring = document.getElementById("felt");
    const slots = ring && ring.dataset.slots ? ring.dataset.slots.split(" ") : [];
    if (slots.length === seats.length) {
      let start = seats.findIndex(function (el) { return el.dataset.seat === mine; });
      if (start < 0) start = 0;
      seats.forEach(function (el, i) {
        const slot = slots[(i - start + seats.length) % seats.length];
        el.className = el.className.replace(/\bslot-[a-z-]+/g, "").trim() + " slot-" + slot;
      });
    }
    const area = document.getElementById("table-area");
    if (area) area.classList.toggle("my-turn", r.dataset.myTurn === "true");
    // The others' wrong show notice gives way to the player's own.
    const notice = document.getElementById("table-notice");
    if (notice && document.getElementById("my-notice")) {
      notice.hidden = (notice.dataset.seats || "").split(" ").indexOf(mine) !== -1;
    }
    document.querySelectorAll(".invite-link").forEach(function (a) { a.textContent = a.href; });
  }
  function showPresence(seat, online) {
    const el = document.querySelector('#felt > .seat[data-seat="' + seat + '"]');
    if (!el) return;
    el.classList.toggle("offline", !online);
    const conn = el.querySelector(".conn");
    if (!conn) return;
    conn.classList.toggle("on", online);
    const ring = document.getElementById("felt");
    const words = ring ? (online ? ring.dataset.online : ring.dataset.offline) : "";
    if (words) {
      conn.title = words;
      const word = conn.querySelector(".conn-word");
      if (word) word.textContent = words;
    }
  }
  // A tap on a deck picks from it, when the player may.
  document.addEventListener("click", function (evt) {
    const pile = evt.target.closest ? evt.target.closest("#felt [data-pick]") : null;
    if (pile) press(".act-" + pile.dataset.pick + " button");
  });

  // A push tells only the moves of its own change: keep the line and the lists the page
  // shows, with the new entries first (a full view, fetched or answered, has them all).
  function carryOver(current, fresh) {
    const line = fresh.querySelector("#last-move[data-carry]");
    const oldLine = current.querySelector("#last-move");
    if (line && oldLine && oldLine.dataset.version) {
      line.replaceWith(oldLine.cloneNode(true));
      const kept = fresh.querySelector("#last-move");
      kept.classList.remove("fresh");
      delete kept.dataset.kind;
    }
    fresh.querySelectorAll("ol[data-partial]").forEach(function (list) {
      const old = current.querySelector("#" + list.id);
      if (old && old.dataset.deal === list.dataset.deal) {
        const limit = parseInt(list.dataset.limit || "8", 10);
        Array.from(old.children).forEach(function (item) {
          if (list.children.length < limit) list.appendChild(item.cloneNode(true));
        });
      }
      list.removeAttribute("data-partial");
    });
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
  function secondsLeft(deadline) {
    return Math.max(0, deadline - Date.now() / 1000 - (window.rummyClockSkew || 0));
  }
  let warnedDeadline = 0;
  function tick() {
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      const deadline = parseFloat(el.dataset.deadline);
      if (!deadline) return;
      const left = Math.round(secondsLeft(deadline));
      el.textContent = left + "s";
      el.classList.toggle("urgent", left <= 10);
    });
    // The ring around the player whose turn it is drains with the turn (or the extra time).
    document.querySelectorAll("[data-ring]").forEach(function (el) {
      const deadline = parseFloat(el.dataset.deadlineRing);
      const total = parseFloat(el.dataset.total) || 30;
      const left = secondsLeft(deadline);
      el.style.setProperty("--frac", String(Math.max(0, Math.min(1, left / total))));
      el.classList.toggle("urgent", left <= 10);
    });
    const r = root();
    const mine = r ? parseFloat(r.dataset.myDeadline || "0") : 0;
    if (mine && mine !== warnedDeadline) {
      const left = secondsLeft(mine);
      if (left <= 10 && left > 0) { warnedDeadline = mine; sound("hurry"); }
    }
  }
  setInterval(tick, 500);

  // --- the hand: selection, drag and drop, arrangement ------------------------------------------
  function handCodes() {
    return Array.from(document.querySelectorAll("#my-hand .pcard")).map(function (c) { return c.dataset.code; }).join(" ");
  }
  function reselect(codes) {
    const left = codes.slice();
    document.querySelectorAll("#my-hand .pcard").forEach(function (card) {
      const at = left.indexOf(card.dataset.code);
      if (at < 0 || card.classList.contains("selected")) return;
      left.splice(at, 1);
      setSelected(card, true);
    });
  }
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
      if (input.form && input.form.dataset.fixedGroups) { input.value = input.form.dataset.fixedGroups; return; }
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
    group.closest("#my-hand").classList.remove("sort-pending");  // shown once in the player's order
    // The button offers the other order.
    button.dataset.sort = order === "rank" ? "suit" : "rank";
    // The words come from the page, in the player's language (data-label-suit / -rank).
    button.textContent = order === "rank"
      ? (button.dataset.labelSuit || "Sort by suit")
      : (button.dataset.labelRank || "Sort by rank");
  }
  document.addEventListener("click", function (evt) {
    const button = evt.target.closest ? evt.target.closest("#sort-hand") : null;
    if (!button) return;
    const order = button.dataset.sort === "suit" ? "suit" : "rank";
    try { window.localStorage.setItem("rummy.classicSort", order); } catch (e) { /* private mode */ }
    applySort(order);
  });

  // --- 13-card: Sort by suit groups the hand by suit (rank order) and saves that arrangement --
  function sortBySuit() {
    const cards = Array.from(document.querySelectorAll("#my-hand .pcard"));
    if (!cards.length || !document.getElementById("arrange-form")) return;
    const bySuit = {};
    cards.forEach(function (card) {
      const code = card.dataset.code || "";
      const suit = /^J[12]?$|^JK|^X/.test(code) || SUITS.indexOf(code.slice(-1)) === -1 ? "*" : code.slice(-1);
      (bySuit[suit] = bySuit[suit] || []).push(code);
    });
    const groups = SUITS.concat(["*"]).filter(function (suit) { return bySuit[suit]; }).map(function (suit) {
      return bySuit[suit].sort(function (a, b) { return RANKS.indexOf(a.slice(0, -1)) - RANKS.indexOf(b.slice(0, -1)); });
    });
    const form = document.getElementById("arrange-form");
    const input = form.querySelector("input[name=groups]");
    input.value = JSON.stringify(groups);
    form.dataset.fixedGroups = input.value;  // syncForms leaves this arrangement as it is
    form.requestSubmit();
  }
  document.addEventListener("click", function (evt) {
    if (evt.target.closest && evt.target.closest("#sort-suit")) sortBySuit();
  });

  // Sounds and what just happened, said and sounded: table-sounds.js (loaded before this).
  const sounds = window.RummySounds || {
    sound: function () {}, showSoundSwitch: function () {}, announce: function () {},
  };
  const sound = sounds.sound;

  // --- the hand: selection in words, a fan fitted to the width, keyboard play -----------------
  function setSelected(card, on) {
    card.classList.toggle("selected", on);
    card.setAttribute("aria-pressed", on ? "true" : "false");
  }
  function describeSelection() {
    const box = document.getElementById("selected-info");
    if (!box) return;
    const sel = Array.from(document.querySelectorAll("#my-hand .pcard.selected"));
    box.textContent = sel.length === 0 ? "" : sel.length === 1
      ? (box.dataset.one || "Selected:") + " " + sel[0].getAttribute("title")
      : sel.length + " " + (box.dataset.many || "cards selected");
  }
  function toggleCard(card) {
    setSelected(card, !card.classList.contains("selected"));
    syncForms();
    describeSelection();
  }
  // Overlap the cards of a group just enough for the widest group to fit the hand's width.
  function fitHand() {
    const hand = document.getElementById("my-hand");
    if (!hand) return;
    const card = hand.querySelector(".pcard");
    if (!card) return;
    const width = hand.clientWidth - 12;
    const cardWidth = card.offsetWidth;
    const most = Math.max.apply(null, Array.from(hand.querySelectorAll(".group")).map(function (g) {
      return g.querySelectorAll(".pcard").length;
    }));
    // As little overlap as one row needs (a fan still: at least a fifth of a card), at most
    // what still shows the index and a bit more; then the widest group must fit.
    const groups = hand.querySelectorAll(".group:not(.new-group)").length;
    const cards = hand.querySelectorAll(".pcard").length;
    const extra = groups * 20 + 50;
    let overlap = cards > groups ? (cardWidth * cards + extra - width) / (cards - groups) : 0;
    overlap = Math.max(cardWidth * 0.2, Math.min(cardWidth * 0.42, overlap));
    if (most > 1) {
      const needed = (cardWidth * most - (width - 12)) / (most - 1);
      overlap = Math.max(overlap, needed);
    }
    overlap = Math.min(overlap, cardWidth - 14);
    hand.style.setProperty("--overlap", overlap.toFixed(1) + "px");
  }
  window.addEventListener("resize", fitHand);

  function handCards() { return Array.from(document.querySelectorAll("#my-hand .pcard")); }
  let focusedCode = null;
  let focusedIndex = 0;
  function focusCard(index) {
    const cards = handCards();
    if (!cards.length) return;
    index = Math.max(0, Math.min(cards.length - 1, index));
    cards.forEach(function (c, i) { c.tabIndex = i === index ? 0 : -1; });
    cards[index].focus();
    focusedIndex = index;
    focusedCode = cards[index].dataset.code;
  }
  function rovingTabindex() {
    const cards = handCards();
    if (!cards.length) return;
    let index = focusedCode ? cards.findIndex(function (c) { return c.dataset.code === focusedCode; }) : -1;
    if (index < 0) index = Math.min(focusedIndex, cards.length - 1);
    cards.forEach(function (c, i) { c.tabIndex = i === index ? 0 : -1; });
    return cards[index];
  }
  function press(selector) {
    const button = document.querySelector(selector);
    if (button && !button.disabled) { button.click(); return true; }
    return false;
  }
  // Move the focused card one place left or right within its group (Alt + arrow), then save.
  function moveCard(card, step) {
    const sibling = step < 0 ? card.previousElementSibling : card.nextElementSibling;
    if (!sibling || !sibling.classList.contains("pcard")) return;
    if (step < 0) card.parentNode.insertBefore(card, sibling); else card.parentNode.insertBefore(sibling, card);
    focusedCode = card.dataset.code;
    card.focus();
    postArrangement();
  }
  document.addEventListener("keydown", function (evt) {
    if (evt.ctrlKey || evt.metaKey) return;
    const target = evt.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable)) return;
    if (!root()) return;
    const inHand = target && target.closest && target.closest("#my-hand .pcard");
    const key = evt.key;
    if (key === "ArrowLeft" || key === "ArrowRight" || key === "Home" || key === "End") {
      const cards = handCards();
      if (!cards.length) return;
      if (!inHand) { evt.preventDefault(); focusCard(focusedIndex); return; }
      const index = cards.indexOf(inHand);
      evt.preventDefault();
      if (evt.altKey && (key === "ArrowLeft" || key === "ArrowRight")) { moveCard(inHand, key === "ArrowLeft" ? -1 : 1); return; }
      if (key === "Home") focusCard(0);
      else if (key === "End") focusCard(cards.length - 1);
      else focusCard(index + (key === "ArrowLeft" ? -1 : 1));
      return;
    }
    if ((key === "Enter" || key === " ") && inHand) {
      evt.preventDefault();
      toggleCard(inHand);
      return;
    }
    if (evt.altKey) return;
    const k = key.toLowerCase();
    const actions = {
      p: ".act-pick_closed button",
      o: ".act-pick_open button",
      d: ".act-discard button",
      s: ".act-declare button",
      g: ".act-sort button",
      u: "#sort-suit",
    };
    if (k === "m") { evt.preventDefault(); toggleSound(); return; }
    if (actions[k] && press(actions[k])) evt.preventDefault();
  });

  // --- the finish slot: a card dropped on it is the finish card of a show --------------------
  function declareWith(card) {
    handCards().forEach(function (c) { setSelected(c, c === card); });
    syncForms();
    describeSelection();
    press(".act-declare button");
  }

  function wire() {
    if (document.getElementById("sort-hand")) applySort(sortOrder());
    sounds.showSoundSwitch();
    sounds.announce();
    const hand = document.getElementById("my-hand");
    if (!hand || hand.dataset.wired === "true") { syncForms(); return; }
    hand.dataset.wired = "true";
    fitHand();
    const active = rovingTabindex();
    if (active && restoreFocus) active.focus();
    restoreFocus = false;
    hand.querySelectorAll(".pcard").forEach(function (card) {
      card.addEventListener("click", function () { toggleCard(card); });
      card.addEventListener("focus", function () {
        focusedCode = card.dataset.code;
        focusedIndex = handCards().indexOf(card);
      });
    });
    const slot = document.getElementById("finish-slot");
    if (window.Sortable && slot) {
      Sortable.create(slot, { group: { name: "hand", pull: false, put: true }, draggable: ".pcard" });
    }
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
            if (evt.to && evt.to.id === "finish-slot") {
              // Back to its place in the hand; the show names this very copy.
              const before = evt.from.querySelectorAll(".pcard")[evt.oldIndex];
              evt.from.insertBefore(evt.item, before || evt.from.querySelector(".group-kind"));
              declareWith(evt.item);
              return;
            }
            if (evt.from !== evt.to || evt.oldIndex !== evt.newIndex) {
              // The arrangement's own fragment follows; a felt that came meanwhile applies now.
              const feltBox = pendingFelt;
              pendingFelt = null;
              pendingSeat = null;
              if (refetchPending) { refetchPending = false; refetch(); } else if (feltBox) { applyFelt(feltBox); }
              setTimeout(postArrangement, 0);
            } else if (pendingSeat || pendingFelt) {
              const seatBox = pendingSeat;
              const feltBox = pendingFelt;
              pendingSeat = null;
              pendingFelt = null;
              if (refetchPending) { refetchPending = false; refetch(); return; }
              if (seatBox) applySeat(seatBox);
              if (feltBox) applyFelt(feltBox);
            } else if (refetchPending) {
              refetchPending = false;
              refetch();
            }
          },
        });
      });
    }
    syncForms();
    describeSelection();
    tick();
  }
  // Keyboard play keeps its place: a card focused before a swap is focused again after it.
  let restoreFocus = false;
  document.addEventListener("htmx:beforeSwap", function () {
    restoreFocus = !!(document.activeElement && document.activeElement.closest && document.activeElement.closest("#my-hand"));
  });
  document.addEventListener("htmx:wsBeforeMessage", function () {
    restoreFocus = !!(document.activeElement && document.activeElement.closest && document.activeElement.closest("#my-hand"));
  }, true);
  // Plain forms that ask first (the CSP allows no inline onsubmit): data-confirm="question".
  document.addEventListener("submit", function (evt) {
    const form = evt.target;
    if (form && form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      evt.preventDefault();
    }
  }, true);
  // A <details> the player opened (the open deck's history, the keys) stays open after a swap.
  const openDetails = {};
  document.addEventListener("toggle", function (evt) {
    const el = evt.target;
    if (el && el.tagName === "DETAILS" && el.id && el.closest("#table-root")) openDetails[el.id] = el.open;
  }, true);
  function reopenDetails() {
    Object.keys(openDetails).forEach(function (id) {
      const el = document.getElementById(id);
      if (el && el.tagName === "DETAILS" && openDetails[id]) el.open = true;
    });
    // Wide screens show the open deck's history beside the felt, open unless the player
    // closed it; phones keep it folded under its summary.
    const history = document.getElementById("open-history");
    if (history && !("open-history" in openDetails) && window.matchMedia(WIDE).matches) {
      history.open = true;
    }
  }
  const WIDE = "(min-width: 1000px)";
  // A deal's result sheet (or the game's result) that has just appeared is brought into view:
  // the player looks there, not at the empty felt.
  let sheetSeen = null;
  function showSheet() {
    const sheet = document.getElementById("game-result") || document.getElementById("scoreboard");
    const ring = document.getElementById("felt");
    if (!sheet || (ring && ring.querySelector(".center"))) { sheetSeen = null; return; }  // a deal on
    if (sheetSeen === sheet.id) return;
    sheetSeen = sheet.id;
    const box = sheet.getBoundingClientRect();
    if (box.top < 0 || box.top > window.innerHeight * 0.5) {
      sheet.scrollIntoView({ block: "start", behavior: "instant" });
    }
  }
  document.addEventListener("DOMContentLoaded", reopenDetails);
  document.addEventListener("htmx:afterSettle", reopenDetails);
  // Classic: the player's order at once, not after htmx's settle delay.
  document.addEventListener("htmx:afterSwap", function () {
    if (document.getElementById("sort-hand")) applySort(sortOrder());
  });
  document.addEventListener("DOMContentLoaded", settled);
  document.addEventListener("htmx:afterSettle", settled);
  // Keep hidden inputs in step right before any form leaves the page.
  document.addEventListener("htmx:configRequest", function (evt) {
    const form = evt.detail.elt;
    if (form && form.tagName === "FORM" && form.closest("#table-root")) {
      syncForms();
      const data = new FormData(form);
      data.forEach(function (value, key) { evt.detail.parameters[key] = value; });
      // The newest version the page shows (a fragment is not re-sent for a change that left
      // it as it was, so its forms may carry an older one).
      // (A fragment pushed ahead of its felt carries the newer version: the newest of both.)
      const newest = Math.max(shownVersion(), seatVersion());
      if (evt.detail.parameters.version !== undefined && newest >= 0) {
        evt.detail.parameters.version = String(newest);
      }
    }
  });
  // What the table's socket (table-socket.js) needs of the page.
  window.RummyTable = {
    root: root,
    felt: felt,
    shownVersion: shownVersion,
    seatVersion: seatVersion,
    refetch: refetch,
    frame: frame,
    applyFelt: applyFelt,
    applySeat: applySeat,
    settled: settled,
    showPresence: showPresence,
    // A pushed felt or seat's parts wait while a card is being dragged (applied on the drop).
    held: function (kind, box) {
      // A drag whose card left the page (its hand was replaced under the pointer) is over:
      // frames are never held for it (they would wait for a drop that cannot come).
      if (dragging && !document.querySelector("#my-hand .sortable-chosen")) dragging = false;
      if (!dragging) return false;
      if (kind === "felt") pendingFelt = box; else pendingSeat = box;
      return true;
    },
  };
})();
