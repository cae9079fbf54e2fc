// Which questions apply to the answers, as the server decides (a form's rules: an XForm's
// `relevant`, `required` and `calculate`). As an answer changes, the form's answers go to the
// server (after a pause in typing; files left out), and its answer shows or hides each
// question's cell, marks the questions that must be answered, shows only the options a list
// offers for the answers (a filtered itemset), and puts the computed values into their
// read-only fields. Hidden questions keep what was typed; the server neither judges nor
// stores them. Without JavaScript the form's Update button asks the same by sending the form.
import { resize } from "./items.js";

const pause = 250;

function controls(form, name) {
  const control = form.elements.namedItem(name);
  if (!control) return [];
  return control instanceof RadioNodeList ? Array.from(control) : [control];
}

function span(className, text, hidden) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  if (hidden) element.setAttribute("aria-hidden", "true");
  return element;
}

/// The mark after the label of a question required depending on the answers, as the server
/// writes it (partials/label): " *" and "(required)" for screen readers, else "(optional)".
function mark(slot, required) {
  if (required) {
    slot.replaceChildren(
      span("fw-label__required", " *", true), span("fw-visually-hidden", " (required)", false));
  } else if (slot.hasAttribute("data-marks-optional")) {
    slot.replaceChildren(span("fw-label__optional", " (optional)", false));
  } else {
    slot.replaceChildren();
  }
}

async function show(form, answer) {
  // A list whose count the rules give gets as many items (items.js asks again once done).
  for (const [path, count] of Object.entries(answer.counts || {})) {
    const list = form.querySelector('section.fw-items[data-list="' + CSS.escape(path) + '"]');
    if (list && list.querySelectorAll(":scope > .fw-item").length !== count) await resize(list, count, form);
  }
  const hidden = new Set(answer.hidden);
  const required = new Set(answer.required);
  for (const cell of form.querySelectorAll(".fw-cell[data-field]")) {
    const name = cell.dataset.field;
    cell.hidden = hidden.has(name);
    const slot = cell.querySelector("[data-required-now]");
    if (slot) mark(slot, required.has(name));
    for (const control of controls(form, name)) {
      if (control.type === "hidden") continue;
      if (required.has(name)) control.setAttribute("aria-required", "true");
      else control.removeAttribute("aria-required");
    }
  }
  // An item list that does not apply (an XForm's repeat), by its path.
  for (const list of form.querySelectorAll("section.fw-items[data-list]")) {
    list.hidden = hidden.has(list.dataset.list);
  }
  for (const group of form.querySelectorAll(".fw-group")) {
    const cells = Array.from(group.querySelectorAll(".fw-cell[data-field]"));
    group.hidden = cells.length > 0 && cells.every((cell) => cell.hidden);
  }
  for (const [name, values] of Object.entries(answer.outputs || {})) {
    values.forEach((value, index) => {
      const shown = form.querySelector('[data-output="' + CSS.escape(name + "." + index) + '"]');
      if (shown && shown.textContent !== value) shown.textContent = value;
    });
  }
  // A list whose options depend on the answers shows only those offered now.
  for (const [name, offered] of Object.entries(answer.options || {})) {
    const keep = new Set(offered);
    for (const option of form.querySelectorAll('select[name="' + CSS.escape(name) + '"] option')) {
      if (!option.value) continue;
      option.hidden = !keep.has(option.value);
      option.disabled = option.hidden;
    }
    for (const box of form.querySelectorAll('input[type="checkbox"][name="' + CSS.escape(name) + '"]')) {
      const wrapper = box.closest(".fw-checkbox");
      if (wrapper) wrapper.hidden = !keep.has(box.value);
    }
  }
  for (const [name, values] of Object.entries(answer.values || {})) {
    for (const control of controls(form, name)) {
      if (control.readOnly && control.value !== (values[0] ?? "")) control.value = values[0] ?? "";
    }
  }
}

export function enhance(root) {
  for (const form of root.querySelectorAll("form[data-rules]")) {
    const update = form.querySelector("[data-rules-update]");
    if (update) update.hidden = true;
    let timer;
    let asked = 0;
    const ask = async () => {
      const body = new URLSearchParams();
      for (const [name, value] of new FormData(form)) {
        if (typeof value === "string") body.append(name, value);
      }
      const mine = ++asked;
      const request = () =>
        fetch(form.dataset.rules, {
          method: "POST",
          credentials: "same-origin",
          headers: { Accept: "application/json" },
          body,
        });
      try {
        // A POST is not sent again by the browser when the connection it went out on was closed
        // meanwhile (a kept-alive one the server let go): asking the rules changes nothing, so
        // a network failure is asked again once before the Update button takes over.
        const answer = await request().catch(() => new Promise((done) => setTimeout(done, 300)).then(request));
        // Only the answer to the latest answers counts.
        if (mine !== asked) return;
        // Refused (an expired form or session, a server error): the Update button asks instead.
        if (!answer.ok) throw new Error(`rules: ${answer.status}`);
        await show(form, await answer.json());
      } catch {
        // Offline or refused: the Update button asks instead.
        if (update) update.hidden = false;
      }
    };
    const changed = (event) => {
      if (!event.target.name || event.target.type === "file") return;
      clearTimeout(timer);
      timer = setTimeout(ask, pause);
    };
    form.addEventListener("input", changed);
    form.addEventListener("change", changed);
    // An item added or removed (items.js): its answers join or leave the form's.
    form.addEventListener("fw-items-changed", () => {
      clearTimeout(timer);
      timer = setTimeout(ask, pause);
    });
  }
}
