// A panel of named numbers (a dice game's scores, turn total and goal): a box each, a player's number edged in
// the player's colour (style.css), the mover's thicker. Its moves are buttons below it (board.js).

import { element, tooltip } from "./svg.js";

const BOX_WIDTH = 150;
const BOX_HEIGHT = 78;
const GAP = 14;
const MARGIN = 20;

/** Draws the counters in a row, wrapped; returns the panel's width and height. */
export function drawPanel(context) {
  const { svg, board } = context;
  const counters = board.counters;
  const perRow = Math.max(1, Math.min(counters.length, 4));
  const width = Math.max(MARGIN * 2 + perRow * (BOX_WIDTH + GAP) - GAP, 560);
  const group = element("g", { class: "panel" }, svg);
  counters.forEach((counter, index) => {
    const x = MARGIN + (index % perRow) * (BOX_WIDTH + GAP);
    const y = MARGIN + Math.floor(index / perRow) * (BOX_HEIGHT + GAP);
    const owner = counter.player ?? "none";
    const moving = counter.player !== null && counter.player === board.to_move;
    const box = element("g", { class: `counter ${owner}${moving ? " to-move" : ""}`, "data-name": counter.name, "data-value": counter.value }, group);
    element("rect", { x, y, width: BOX_WIDTH, height: BOX_HEIGHT, rx: 10, class: "counter-box" }, box);
    element("text", { x: x + BOX_WIDTH / 2, y: y + 22, class: "counter-name" }, box).textContent = counter.name;
    element("text", { x: x + BOX_WIDTH / 2, y: y + 60, class: "counter-value" }, box).textContent = String(counter.value);
    tooltip(box, `${counter.name}: ${counter.value}${moving ? " (to move)" : ""}`);
  });
  const rows = Math.ceil(counters.length / perRow);
  return { width, height: MARGIN + rows * (BOX_HEIGHT + GAP) + 6 };
}
