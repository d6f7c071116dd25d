// The site's service worker (docs/push.md), served from /sw.js by accounts.push.views, which
// puts WORKER (what to precache, the offline page) and VERSION in front of this file.
//
// What it keeps: the offline page and a few public static files, nothing else. Every page is
// fetched from the network (tables, the wallet, the profile and everything behind a log-in are
// never stored); a page that cannot be loaded shows the offline page instead.
/* global WORKER, VERSION */
"use strict";
const CACHE = "rummy-public-" + VERSION;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE)
      .then(function (cache) { return cache.addAll(WORKER.precache); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (name) { return name !== CACHE; })
          .map(function (name) { return caches.delete(name); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    // Network only; the offline page when the network is down.
    event.respondWith(fetch(request).catch(function () {
      return caches.match(WORKER.offline);
    }));
    return;
  }
  const url = new URL(request.url);
  if (url.origin === self.location.origin && WORKER.precache.indexOf(url.pathname) !== -1) {
    // A precached public file: from the network, the kept copy when offline.
    event.respondWith(fetch(request).catch(function () {
      return caches.match(url.pathname);
    }));
  }
});

// A notice from the site (accounts.push): {title, body, url, kind}.
self.addEventListener("push", function (event) {
  let notice = {};
  try { notice = event.data ? event.data.json() : {}; } catch (e) { notice = {}; }
  if (!notice.title) return;
  const icon = WORKER.precache.find(function (path) { return path.indexOf("icon-192") !== -1; });
  event.waitUntil(self.registration.showNotification(notice.title, {
    body: notice.body || "",
    icon: icon,
    tag: notice.kind || "rummy",
    data: { url: typeof notice.url === "string" && notice.url.charAt(0) === "/" ? notice.url : "/" },
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  const target = new URL(event.notification.data && event.notification.data.url || "/", self.location.origin);
  if (target.origin !== self.location.origin) return;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (list) {
    for (const client of list) {
      if (client.url === target.href && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(target.href);
  }));
});
