// Text fields get a Clear button while they hold text: it empties the field and puts focus
// back in it. Its accessible name is "Clear" and the field's label ("Clear Title"). Like a
// native search field's, it is no tab stop: from the keyboard the field itself is cleared, and
// Tab goes from field to field.
import { labelText } from "./label-text.js";

export function enhance(root) {
  root.querySelectorAll("input[data-clear]").forEach((input) => {
    if (input.readOnly || input.disabled) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "fw-clear";
    button.tabIndex = -1;
    button.setAttribute("aria-label", "Clear " + (labelText(input) || "field"));
    input.insertAdjacentElement("afterend", button);
    input.parentElement.classList.add("fw-affixed--clearable");
    const update = () => { button.hidden = input.value === ""; };
    button.addEventListener("click", () => {
      input.value = "";
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.focus();
    });
    input.addEventListener("input", update);
    update();
  });
}
