// Unsaved changes: Cancel on a create or edit view whose input differs from what the view
// loaded with asks first ("Discard this new issue?", Discard or Keep editing); untouched, it
// leaves at once. Leaving by the browser's own navigation asks through beforeunload. Create and
// Save never ask. The form says what to ask in data-unsaved.

/// The form's values as one comparable string: every named control but the tokens, files by
/// name and size. Compared with the snapshot taken on load, not tracked by change events.
export function snapshot(form) {
  const parts = [];
  for (const element of form.elements) {
    if (!element.name || element.disabled || element.type === "hidden" || element.type === "submit") continue;
    if ((element.type === "checkbox" || element.type === "radio") && !element.checked) continue;
    if (element.type === "file") {
      for (const file of element.files || []) parts.push(element.name + "=file:" + file.name + ":" + file.size);
      continue;
    }
    if (element.tagName === "SELECT") {
      for (const option of element.selectedOptions) parts.push(element.name + "=" + option.value);
      continue;
    }
    parts.push(element.name + "=" + element.value);
  }
  return parts.join("\n");
}

/// Asks whether to discard; resolves true for Discard, false for Keep editing or Escape. The
/// attachment previewer asks the same way with its own words ("Delete", "Cancel").
export function confirmDiscard(question, yes = "Discard", no = "Keep editing") {
  return new Promise((resolve) => {
    const dialog = document.createElement("dialog");
    dialog.className = "fw-discard";
    const id = "fw-discard-" + Math.random().toString(36).slice(2);
    dialog.setAttribute("aria-labelledby", id);
    const form = document.createElement("form");
    form.method = "dialog";
    const text = document.createElement("p");
    text.className = "fw-discard__text";
    text.id = id;
    text.textContent = question;
    const actions = document.createElement("div");
    actions.className = "fw-confirm__actions";
    const keep = document.createElement("button");
    keep.className = "fw-button";
    keep.value = "keep";
    keep.textContent = no;
    const discard = document.createElement("button");
    discard.className = "fw-button fw-button--danger";
    discard.value = "discard";
    discard.textContent = yes;
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
