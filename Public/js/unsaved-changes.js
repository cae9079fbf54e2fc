// Unsaved changes: Cancel on a create or edit view whose input differs from what the view
// loaded with asks first ("Discard this new issue?", Discard or Keep editing); untouched, it
// leaves at once. Leaving by the browser's own navigation asks through beforeunload. Create and
// Save never ask. The form says what to ask in data-unsaved.
import { element } from "./element.js";

/// The form's values as one comparable string: every named control but the tokens, files by
/// name and size. Compared with the snapshot taken on load, not tracked by change events.
export function snapshot(form) {
  const parts = [];
  for (const control of form.elements) {
    if (!control.name || control.disabled || control.type === "hidden" || control.type === "submit") continue;
    if ((control.type === "checkbox" || control.type === "radio") && !control.checked) continue;
    if (control.type === "file") {
      for (const file of control.files || []) parts.push(control.name + "=file:" + file.name + ":" + file.size);
      continue;
    }
    if (control.tagName === "SELECT") {
      for (const option of control.selectedOptions) parts.push(control.name + "=" + option.value);
      continue;
    }
    parts.push(control.name + "=" + control.value);
  }
  return parts.join("\n");
}

/// Asks whether to discard; resolves true for Discard, false for Keep editing or Escape. The
/// attachment previewer asks the same way with its own words ("Delete", "Cancel").
export function confirmDiscard(question, yes = "Discard", no = "Keep editing") {
  return new Promise((resolve) => {
    const dialog = element("dialog", "fw-discard");
    const id = "fw-discard-" + Math.random().toString(36).slice(2);
    dialog.setAttribute("aria-labelledby", id);
    const form = document.createElement("form");
    form.method = "dialog";
    const text = element("p", "fw-discard__text", question);
    text.id = id;
    const actions = element("div", "fw-confirm__actions");
    const keep = element("button", "fw-button", no);
    keep.value = "keep";
    const discard = element("button", "fw-button fw-button--danger", yes);
    discard.value = "discard";
    actions.append(discard, keep);
    form.append(text, actions);
    dialog.append(form);
    document.body.append(dialog);
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(dialog.returnValue === "discard");
    });
    dialog.showModal();
    keep.focus();
  });
}

/// Watches one form: `isChanged()` says whether its input differs from the loaded values.
export function watch(form) {
  const loaded = snapshot(form);
  const state = { submitting: false, leaving: false };
  form.addEventListener("submit", () => { state.submitting = true; });
  state.isChanged = () => !state.submitting && !state.leaving && snapshot(form) !== loaded;
  return state;
}

export function enhance(root) {
  root.querySelectorAll("form[data-unsaved]").forEach((form) => {
    const question = form.getAttribute("data-unsaved");
    const state = watch(form);
    form.fwUnsaved = state;
    // Inside a dialog the dialog asks on close; a page asks before it is left.
    if (!form.closest("dialog")) {
      window.addEventListener("beforeunload", (event) => {
        if (state.isChanged()) event.preventDefault();
      });
    }
    form.querySelectorAll("[data-cancel]").forEach((cancel) => {
      cancel.addEventListener("click", async (event) => {
        if (!state.isChanged()) return;
        event.preventDefault();
        if (await confirmDiscard(question)) {
          state.leaving = true;
          cancel.dispatchEvent(new CustomEvent("fw:discard", { bubbles: true }));
          if (!form.closest("dialog")) window.location.assign(cancel.href);
        }
      });
    });
  });
}
