// Attachments: say how many files are chosen, against the limit.
export function enhance(root) {
  root.querySelectorAll("input[data-attachments]").forEach((input) => {
    let count = input.parentNode.querySelector(".fw-attachments__count");
    if (!count) {
      count = document.createElement("p");
      count.className = "fw-attachments__count";
      input.parentNode.appendChild(count);
    }
    const original = count.textContent;
    count.setAttribute("aria-live", "polite");
    input.addEventListener("change", () => {
      const n = input.files ? input.files.length : 0;
      const max = input.getAttribute("data-max-count");
      if (n === 0) { count.textContent = original; return; }
      count.textContent = n + (n === 1 ? " file" : " files") + " chosen" + (max ? " (up to " + max + ")" : "");
    });
  });
}
