// The modal: "+" on a parent page opens the create view in a <dialog> over the parent, loaded
// from the same server-rendered view (full screen at compact width, a centred form sheet at
// regular width, a popover by "+" for regular="popover"). Create posts as the page would: a
// stored object goes to its detail page, a refusal re-renders inside the modal with focus on
// the error summary. Cancel, Escape, browser Back and, at regular width, a click outside the
// sheet close it, asking first when input changed. Without JavaScript "+" stays a link to the
// create view.
import { element } from "./element.js";
import { isCompact } from "./layout.js";
import { confirmDiscard } from "./unsaved-changes.js";

function firstKeyField(sheet) {
  return sheet.querySelector(
    ".fw-section--key :is(input, textarea, select, button):not([type=hidden]):not([disabled]):not([readonly])")
    || sheet.querySelector(".fw-sheet__body :is(input, textarea, select, button):not([type=hidden]):not([disabled])");
}

/// The sheet of a fetched create view, as a <div> (the page keeps its one <main>).
function sheetOf(html) {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const main = doc.querySelector("main.fw-sheet");
  if (!main) return null;
  const sheet = element("div", main.className);
  sheet.append(...Array.from(main.childNodes).map((n) => document.importNode(n, true)));
  return { sheet, popover: doc.documentElement.classList.contains("fw-presentation-popover") };
}

async function open(link) {
  const response = await fetch(link.href, { headers: { Accept: "text/html" }, credentials: "same-origin" });
  if (!response.ok || response.redirected) return false;
  const found = sheetOf(await response.text());
  if (!found) return false;
  const { enhance } = await import("./fieldwork.js");

  const dialog = element("dialog", "fw-modal" + (found.popover ? " fw-modal--popover" : ""));
  dialog.setAttribute("aria-labelledby", "fw-modal-title");
  document.body.append(dialog);

  const show = (sheet, refused) => {
    // A refusal replaces the sheet in place: it does not slide in again.
    if (refused) sheet.classList.add("fw-sheet--again");
    dialog.replaceChildren(sheet);
    sheet.querySelector(".fw-navbar__title")?.setAttribute("id", "fw-modal-title");
    wire(sheet);
    if (!refused) firstKeyField(sheet)?.focus();
    // The sheet says when it is enhanced, as the page does (tests wait for it).
    enhance(sheet).then(() => sheet.setAttribute("data-enhanced", ""));
  };

  const close = async () => {
    const form = dialog.querySelector("form");
    const state = form?.fwUnsaved;
    if (state && state.isChanged() && !(await confirmDiscard(form.getAttribute("data-unsaved")))) return;
    dialog.close();
  };

  const wire = (sheet) => {
    const form = sheet.querySelector("form");
    sheet.querySelectorAll("[data-cancel]").forEach((cancel) => {
      cancel.addEventListener("click", (event) => {
        event.preventDefault();
        event.stopImmediatePropagation();
        close();
      }, { capture: true });
    });
    form?.addEventListener("submit", async (event) => {
      event.preventDefault();
      const submit = event.submitter;
      if (submit) submit.disabled = true;
      const data = new FormData(form, submit && submit.name ? submit : undefined);
      const multipart = form.enctype === "multipart/form-data";
      try {
        // A button may send the form elsewhere (Cancel of a kept draft posts to its discard route).
        const action = submit ? submit.formAction : form.action;
        const answer = await fetch(action, {
          method: "POST", credentials: "same-origin",
          body: multipart ? data : new URLSearchParams(data),
        });
        if (answer.redirected && answer.ok) {
          if (form.fwUnsaved) form.fwUnsaved.leaving = true;
          // In place of the sheet's history entry: Back from the new object goes to the parent.
          window.location.replace(answer.url);
          return;
        }
        if (answer.status === 422) {
          const again = sheetOf(await answer.text());
          if (again) {
            show(again.sheet, true);
            return;
          }
        }
        // Anything else (an expired token, a refusal page): let the browser show the server's answer.
        if (form.fwUnsaved) form.fwUnsaved.leaving = true;
        form.action = action;
        HTMLFormElement.prototype.submit.call(form);
      } finally {
        if (submit) submit.disabled = false;
      }
    });
  };

  dialog.addEventListener("cancel", (event) => {
    event.preventDefault();
    close();
  });
  // At regular width a click on the dimmed page (the dialog itself, outside the sheet) closes it.
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog && !dialog.classList.contains("fw-modal--compact")) close();
  });
  // Browser Back (a phone's back gesture) closes the sheet as Cancel does, asking first when
  // input changed: the open sheet is a history entry of its own, at the parent's address.
  let popped = false;
  const back = async () => {
    // A dialog over the sheet (a list screen, the previewer, a question) goes back to the
    // sheet: closing the question is "Keep editing".
    const top = [...document.querySelectorAll("dialog[open]")].at(-1);
    if (top && top !== dialog) {
      top.close();
      history.pushState({ fwModal: true }, "");
      return;
    }
    popped = true;
    const form = dialog.querySelector("form");
    const state = form?.fwUnsaved;
    if (state && state.isChanged() && !(await confirmDiscard(form.getAttribute("data-unsaved")))) {
      popped = false;
      history.pushState({ fwModal: true }, "");
      return;
    }
    dialog.close();
  };
  window.addEventListener("popstate", back);
  dialog.addEventListener("close", () => {
    window.removeEventListener("popstate", back);
    // Closed another way: its history entry goes too.
    if (!popped) history.back();
    dialog.remove();
    link.focus();
  });

  if (isCompact()) dialog.classList.add("fw-modal--compact");
  history.pushState({ fwModal: true }, "");
  dialog.showModal();
  show(found.sheet, false);
  return true;
}

export function enhance(root) {
  root.querySelectorAll("a[data-modal]").forEach((link) => {
    if (link.closest("[inert]")) return;
    link.addEventListener("click", async (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      if (!(await open(link))) window.location.assign(link.href);
    });
  });
}
