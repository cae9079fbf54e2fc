// Builds the elements the modules add to a page: one helper they share.

/// A new element with a class and, when given, its text.
export function element(tag, className, text) {
  const made = document.createElement(tag);
  made.className = className;
  if (text) made.textContent = text;
  return made;
}

/// A button that is not a submit button.
export function button(text, className) {
  const made = element("button", className, text);
  made.type = "button";
  return made;
}
