// The shoe commitment's check in the browser (docs/fairness.md): the SHA-256 of the exact text
// the table page shows (#commitment-preimage, UTF-8) is compared with the commitment published
// before the first card, with the browser's own SubtleCrypto. The words come from the page.
(function () {
  "use strict";

  function hex(buffer) {
    return Array.from(new Uint8Array(buffer), function (b) {
      return b.toString(16).padStart(2, "0");
    }).join("");
  }

  async function check(button) {
    const text = document.getElementById("commitment-preimage");
    const out = document.getElementById("commitment-result");
    if (!text || !out) return;
    if (!window.crypto || !window.crypto.subtle) {
      out.textContent = button.dataset.unavailable;
      out.dataset.result = "unavailable";
      return;
    }
    const digest = await window.crypto.subtle.digest(
      "SHA-256", new TextEncoder().encode(text.textContent)
    );
    const matches = hex(digest) === String(button.dataset.commitment || "").toLowerCase();
    out.textContent = (matches ? button.dataset.match : button.dataset.mismatch) +
      " SHA-256: " + hex(digest);
    out.dataset.result = matches ? "match" : "mismatch";
  }

  // Delegated: the table partial is swapped in and out by pushes and re-fetches.
  document.addEventListener("click", function (evt) {
    const button = evt.target.closest && evt.target.closest("#commitment-check");
    if (button) check(button);
  });
})();
