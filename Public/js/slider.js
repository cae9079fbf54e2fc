// Slider: the named number field works alone (without JavaScript); this shows the range beside
// it and keeps both in step.
export function enhance(root) {
  root.querySelectorAll("[data-slider]").forEach((slider) => {
    const range = slider.querySelector(".fw-slider__range");
    const number = slider.querySelector(".fw-slider__number");
    if (!range || !number) return;
    range.hidden = false;
    if (number.value !== "") range.value = number.value;
    // With no value yet, the thumb sits at the middle: dimmed, it does not pass for a value.
    const unset = () => range.toggleAttribute("data-unset", number.value === "");
    unset();
    range.addEventListener("input", () => { number.value = range.value; unset(); });
    // A click on the thumb where it rests moves nothing, so no input event: it still chooses that value.
    range.addEventListener("click", () => { if (number.value === "") { number.value = range.value; unset(); } });
    const valid = () => number.value !== "" && !isNaN(Number(number.value));
    number.addEventListener("input", () => { if (valid()) range.value = number.value; unset(); });
    // A typed value off the step or range becomes the range's nearest, as a drag would.
    number.addEventListener("change", () => { if (valid()) number.value = range.value; unset(); });
  });
}
