// After a refused submit, focus goes to the error summary so it is read first. It already
// stands at the top of the new page; letting focus() scroll would measure it while the sheet
// is still sliding in (a screen height lower) and leave the page scrolled far past it.
export function enhance(root) {
  const summary = root.querySelector("[data-error-summary]");
  if (summary) summary.focus({ preventScroll: true });
}
