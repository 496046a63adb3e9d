// The pieces every board is drawn with: SVG elements, tooltips, a move's marker (a disc in its value's colour
// with its badge) and a move's button (a labelled box in its value's colour, for the moves made beside the
// board: a pass, a dice game's choices, the outcomes of chance).

import { badge, describe, isOutcome } from "./values.js";

const SVG = "http://www.w3.org/2000/svg";

/** The players' colours: never a value's (green, yellow, red). */
export const PLAYER_FILL = { first: "#2447a8", second: "#f3efe4" };
/** The players' ink, for lines and marks (the second's fill is too light for a line). */
export const PLAYER_INK = { first: "#2447a8", second: "#3a3a3a" };

/** An SVG element with attributes, appended to `parent`. */
export function element(tag, attributes, parent) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    node.setAttribute(name, String(value));
  }
  if (parent) {
    parent.appendChild(node);
  }
  return node;
}

/** A tooltip for an SVG element. */
export function tooltip(node, text) {
  element("title", {}, node).textContent = text;
}

/** Makes `node` play `action` on a click, or on Enter or Space when it has the focus. */
export function clickable(node, action) {
  node.setAttribute("tabindex", 0);
  node.setAttribute("role", "button");
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    action();
  });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      action();
    }
  });
}

/** A move's group: its data attributes (the move, its value) and tooltip, playing the move when clicked. */
function moveGroup(context, group, move, className) {
  const value = context.values.get(move);
  const node = element("g", { class: className, "data-move": move }, group);
  if (value) {
    node.setAttribute("data-value", value.value);
    node.setAttribute("data-remoteness", value.remoteness ?? "");
    tooltip(node, `${move}: ${describe(value)}${value.best ? " (best)" : ""}`);
  }
  clickable(node, () => context.onMove(move));
  return [node, value];
}

/** A move's marker: a disc in its value's colour with its badge, playing the move on a click. */
export function marker(context, group, move, x, y, radius) {
  const [node, value] = moveGroup(context, group, move, "move");
  const fill = context.paint(move);
  const disc = element("circle", { cx: x, cy: y, r: radius, fill, "data-fill": fill }, node);
  if (value) {
    disc.setAttribute("class", value.best ? "marker best" : "marker");
    if (context.view.showValues) {
      element("text", { x, y: y + 5, class: "badge" }, node).textContent = badge(value);
    }
  }
  return node;
}

/** The height of a move's button. */
export const BUTTON_HEIGHT = 46;

/** The width of the button of `move`. */
export function buttonWidth(move) {
  return Math.max(86, 24 + 10 * move.length);
}

/**
 * A move's button at (`x`, `y`), its top left: the move's text over its badge (and, for an outcome of
 * chance, the outcome's probability), in its value's colour, playing the move on a click.
 */
export function button(context, group, move, x, y) {
  const [node, value] = moveGroup(context, group, move, "move choice");
  const width = buttonWidth(move);
  const fill = context.paint(move);
  const box = element("rect", { x, y, width, height: BUTTON_HEIGHT, rx: 9, fill, "data-fill": fill }, node);
  box.setAttribute("class", value?.best ? "marker best" : "marker");
  const centre = x + width / 2;
  element("text", { x: centre, y: y + 19, class: "choice-label" }, node).textContent = move;
  const notes = [];
  if (value && isOutcome(value)) {
    notes.push(value.chance);
  }
  if (value && context.view.showValues) {
    notes.push(badge(value));
  }
  element("text", { x: centre, y: y + 37, class: "choice-note" }, node).textContent = notes.join(" · ");
  return node;
}
