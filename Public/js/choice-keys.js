// Chips and segmented buttons: the arrow keys move between the options without choosing one,
// Space chooses (a radio) or toggles (a checkbox), as in Fiori. Native radios would choose as
// they move; checkboxes would not move at all.
const keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

export function enhance(root) {
  root.querySelectorAll("[data-choices]").forEach((group) => {
    const inputs = () => Array.from(group.querySelectorAll("input:not([disabled])"));
    group.addEventListener("keydown", (event) => {
      const step = keys[event.key];
      if (!step || event.altKey || event.ctrlKey || event.metaKey) return;
      const all = inputs();
      const at = all.indexOf(event.target);
      if (at < 0) return;
      event.preventDefault();
      all[(at + step + all.length) % all.length].focus();
    });
    group.addEventListener("keydown", (event) => {
      if (event.key !== " " || event.target.type !== "radio") return;
      // A focused radio that is not chosen yet is chosen by Space (the browser does this too,
      // but only after a native arrow move; keep it explicit).
      if (!event.target.checked) {
        event.preventDefault();
        event.target.checked = true;
        event.target.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
  });
}
