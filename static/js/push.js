// The profile page's "Turn on notifications" (docs/push.md): asks the browser's permission
// only when the button is pressed, subscribes with the site's VAPID public key and posts the
// subscription to the server; "Turn off" unsubscribes this browser. The words are the page's
// own (translated in the template): this file only shows or hides them.
(function () {
  "use strict";
  const box = document.getElementById("push-settings");
  if (!box || !box.dataset.key) return;
  const on = document.getElementById("push-on");
  const off = document.getElementById("push-off");
  const result = document.getElementById("push-result");

  function show(state) {
    box.querySelectorAll("[data-state]").forEach(function (el) {
      el.hidden = el.dataset.state !== state;
    });
    on.hidden = state !== "off";
    off.hidden = state !== "on";
    box.dataset.pushState = state;
  }
  function say(text) { result.textContent = text || ""; }

  function keyBytes(text) {
    const padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    const raw = window.atob(padded);
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }
  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": box.dataset.csrf },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().then(function (answer) {
        if (!response.ok) throw new Error(answer.error || String(response.status));
        return answer;
      });
    });
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    show("unsupported");
    return;
  }
  navigator.serviceWorker.ready.then(function (registration) {
    return registration.pushManager.getSubscription().then(function (subscription) {
      if (subscription) show("on");
      else show(Notification.permission === "denied" ? "denied" : "off");
    });
  });

  on.addEventListener("click", function () {
    on.disabled = true;
    say("");
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") { show(permission === "denied" ? "denied" : "off"); return null; }
      return navigator.serviceWorker.ready.then(function (registration) {
        return registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(box.dataset.key),
        });
      }).then(function (subscription) {
        return post(box.dataset.subscribe, subscription.toJSON());
      }).then(function (answer) {
        show("on");
        say(answer.message);
      });
    }).catch(function (error) {
      say(box.dataset.failed + " " + (error && error.message ? error.message : ""));
    }).finally(function () { on.disabled = false; });
  });

  off.addEventListener("click", function () {
    off.disabled = true;
    say("");
    navigator.serviceWorker.ready.then(function (registration) {
      return registration.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription) return null;
      const endpoint = subscription.endpoint;
      return subscription.unsubscribe().then(function () {
        return post(box.dataset.unsubscribe, { endpoint: endpoint });
      });
    }).then(function (answer) {
      show("off");
      if (answer) say(answer.message);
    }).catch(function (error) {
      say(box.dataset.failed + " " + (error && error.message ? error.message : ""));
    }).finally(function () { off.disabled = false; });
  });
})();
