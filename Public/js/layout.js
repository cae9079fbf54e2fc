// Whether the page is at compact width: forced by ?layout=compact, or the viewport decides.
export function isCompact() {
  const html = document.documentElement.classList;
  if (html.contains("fw-layout-compact")) return true;
  if (html.contains("fw-layout-regular")) return false;
  return window.matchMedia("(max-width: 599px)").matches;
}
