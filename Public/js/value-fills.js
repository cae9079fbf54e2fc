// What choosing a row of a value help gives the form's other fields (the options API's
// `fills`, its Out parameters): each named field takes its value, as Fiori elements fills them.
// A plain input takes the text, a select or a set of radios the option, a long list the value
// with its label (asked from the list's own options). Each field says so with a change event,
// so that a list screen's cell shows the new choice. The list screen (drill-down.js) asks with an
// `fw:fills` event from the chosen list.
import { longListInput } from "./long-list-input.js";

function changed(input) {
  input.dispatchEvent(new Event("input", { bubbles: true }));
  input.dispatchEvent(new Event("change", { bubbles: true }));
}

/// A long list's value, labelled by the list's own options once they answer.
async function chooseInLongList(control, value) {
  const input = longListInput(control, value, value);
  input.checked = true;
  changed(input);
  if (!input.hidden || !control.dataset.optionsUrl) return;
  const url = new URL(control.dataset.optionsUrl, location.href);
  url.searchParams.set("q", value);
  const answer = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
  if (!answer.ok) return;
  const match = (await answer.json()).options.find((option) => option.value === value);
  if (match && input.checked) {
    input.dataset.label = match.label;
    changed(input);
  }
}

/// Puts each value of `fills` (by field name) into the field of that name in `form`.
export function fill(form, fills) {
  if (!form || !fills) return;
  for (const [name, value] of Object.entries(fills)) {
    const long = form.querySelector('.fw-longlist[data-name="' + CSS.escape(name) + '"]');
    if (long) {
      chooseInLongList(long, value);
      continue;
    }
    const control = form.elements.namedItem(name);
    if (!control) continue;
    if (control instanceof RadioNodeList) {
      const inputs = Array.from(control).filter((input) => input.type === "radio" || input.type === "checkbox");
      const chosen = inputs.find((input) => input.value === value);
      if (!chosen) continue;
      chosen.checked = true;
      changed(chosen);
    } else if (control.tagName === "SELECT") {
      // A value the page does not offer is added, so that the server judges it as sent.
      if (!Array.from(control.options).some((option) => option.value === value)) {
        control.append(new Option(value, value));
      }
      control.value = value;
      changed(control);
    } else if (!control.readOnly && !control.disabled) {
      control.value = value;
      changed(control);
    }
  }
}

export function enhance(root) {
  root.addEventListener("fw:fills", (event) => {
    // A sheet in a dialog is enhanced as a root of its own: fill once.
    if (event.fwFilled) return;
    event.fwFilled = true;
    fill(event.target.closest("form"), event.detail);
  });
}
