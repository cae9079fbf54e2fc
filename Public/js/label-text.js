// The visible words of a control's label: without the required marker, "(optional)" and the
// text only screen readers hear. "Clear Title" and "Filter Project" are built from them.
export function labelText(control) {
  const label = control.id ? document.querySelector('label[for="' + CSS.escape(control.id) + '"]') : null;
  if (!label) return "";
  const copy = label.cloneNode(true);
  copy.querySelectorAll(".fw-visually-hidden, .fw-label__required, .fw-label__optional").forEach((e) => e.remove());
  return copy.textContent.replace(/\s+/g, " ").trim();
}
