// Num scores as an installable app: registers the service worker (static/js/sw.js, served at
// /sw.js) once the page has loaded, so that it never competes with the page's own requests.
if ("serviceWorker" in navigator) {
  const sw = navigator.serviceWorker;
  // Whether this page's own request went through the worker. A page that loaded before the
  // worker was installed went past it, even when the worker takes the page over a moment
  // later (clients.claim): only the navigation's timing says whether a worker answered it.
  const navigation = performance.getEntriesByType("navigation")[0];
  const wentPast = !sw.controller || !navigation || !(navigation.workerStart > 0);
  window.addEventListener("load", async () => {
    try {
      await sw.register("/sw.js", { scope: "/" });
      const reg = await sw.ready;
      if (!reg.active || document.getElementById("offline")) return;
      // The offline page is shown in the language of the last page seen.
      reg.active.postMessage({ lang: document.documentElement.lang });
      // Ask the worker to keep for offline use the page that went past it.
      if (wentPast) reg.active.postMessage({ keep: window.location.pathname + window.location.search });
    } catch (e) {
      /* no service worker (private mode, old browser): the app works online as before */
    }
  });
}

// The offline page's "Try again" reloads the address that could not be reached.
document.addEventListener("DOMContentLoaded", () => {
  const retry = document.getElementById("retry");
  if (retry) retry.addEventListener("click", () => window.location.reload());
});
