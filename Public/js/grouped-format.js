// Grouped characters ("#" a digit, "A" a letter, "*" anything, other characters literal) keep
// their formatting as the user types, with the caret after the same character it followed,
// also when editing in the middle. The server strips the literals again: this is cosmetic.

const significant = /[0-9A-Za-z]/;

export function applyFormat(format, raw) {
  const chars = raw.replace(/[^0-9A-Za-z]/g, "").split("");
  let out = "";
  for (let i = 0; i < format.length && chars.length > 0; i++) {
    const f = format.charAt(i);
    if (f === "#" || f === "A" || f === "*") {
      const c = chars[0];
      const ok = f === "*" || (f === "#" ? /[0-9]/.test(c) : /[A-Za-z]/.test(c));
      if (!ok) { chars.shift(); i--; continue; }
      out += chars.shift();
    } else {
      out += f;
    }
  }
  return out;
}

/// Where the caret goes in `formatted`: after as many significant characters as stood before it.
export function caretAfter(formatted, count) {
  if (count === 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i++) {
    if (significant.test(formatted.charAt(i))) seen += 1;
    if (seen === count) return i + 1;
  }
  return formatted.length;
}

export function enhance(root) {
  root.querySelectorAll("input[data-format]").forEach((input) => {
    const format = input.getAttribute("data-format");
    input.addEventListener("input", (event) => {
      // Deleting a literal alone would be undone at once: let it be, the next edit regroups.
      if (event.inputType && event.inputType.startsWith("delete")
          && applyFormat(format, input.value) === input.value) return;
      const caret = input.selectionStart ?? input.value.length;
      const before = input.value.slice(0, caret).replace(/[^0-9A-Za-z]/g, "").length;
      const formatted = applyFormat(format, input.value);
      if (formatted === input.value) return;
      input.value = formatted;
      const at = caretAfter(formatted, before);
      input.setSelectionRange(at, at);
    });
  });
}
