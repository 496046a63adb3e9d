// A mancala board (Kalah): the first player's pits along the bottom from the left, the second's along the top
// from the right (the way the seeds go round, counter-clockwise), the first player's store at the right end
// and the second's at the left; each pit and store with its count of seeds. The mover's pits that can be sown
// have a marker beside them (below the bottom row, above the top one) in the move's value's colour; a click
// on the marker or on the pit sows it.

import { clickable, element, marker, tooltip } from "./svg.js";

const CELL = 70;
const MARGIN = 24;
/** Room above and below the rows for the markers. */
const MARKERS = 44;
/** The most seeds drawn one by one round a pit (more are only counted). */
const SEEDS_DRAWN = 12;

/** The centre of column `column` (0: the second player's store, `pits + 1`: the first player's). */
function columnX(column) {
  return MARGIN + column * CELL + CELL / 2;
}

/** The seeds of a pit or store as small dots in a ring round its count. */
function drawSeeds(group, count, x, y, radius) {
  const shown = Math.min(count, SEEDS_DRAWN);
  for (let seed = 0; seed < shown; seed++) {
    const angle = (2 * Math.PI * seed) / shown - Math.PI / 2;
    const [dx, dy] = [radius * 0.68 * Math.cos(angle), radius * 0.68 * Math.sin(angle)];
    element("circle", { cx: x + dx, cy: y + dy, r: 4, class: "seed" }, group);
  }
  element("text", { x, y: y + 7, class: "seed-count" }, group).textContent = String(count);
}

/** Draws the pits and stores, and the mover's moves; returns the board's width and height. */
export function drawPits(context) {
  const { svg, board } = context;
  const pits = board.pits[0].length;
  const width = (pits + 2) * CELL + 2 * MARGIN;
  const top = MARGIN + MARKERS + CELL / 2;
  const bottom = top + CELL + 10;
  const height = bottom + CELL / 2 + MARKERS + MARGIN;
  const back = element("g", { class: "pits" }, svg);
  element("rect", { x: MARGIN / 2, y: top - CELL * 0.65, width: width - MARGIN, height: bottom - top + CELL * 1.3, rx: 34, class: "mancala" }, back);
  // Where pit `index` of `side` (0: the first player's) is drawn: along the bottom from the left, or along
  // the top from the right.
  const at = (side, index) => (side === 0 ? [columnX(index + 1), bottom] : [columnX(pits - index), top]);
  const players = ["first", "second"];
  board.pits.forEach((row, side) => {
    row.forEach((count, index) => {
      const [x, y] = at(side, index);
      const pit = element("g", { class: `pit ${players[side]}`, "data-side": side, "data-pit": index, "data-seeds": count }, back);
      element("circle", { cx: x, cy: y, r: CELL * 0.4, class: "hollow" }, pit);
      drawSeeds(pit, count, x, y, CELL * 0.4);
    });
  });
  board.stores.forEach((count, side) => {
    const x = columnX(side === 0 ? pits + 1 : 0);
    const store = element("g", { class: `store ${players[side]}`, "data-side": side, "data-seeds": count }, back);
    element("rect", { x: x - CELL * 0.4, y: top - CELL * 0.42, width: CELL * 0.8, height: bottom - top + CELL * 0.84, rx: CELL * 0.4, class: "hollow" }, store);
    drawSeeds(store, count, x, (top + bottom) / 2, CELL * 0.4);
    tooltip(store, `the ${players[side]} player's store: ${count} seeds`);
  });
  // The mover's moves: the sowing side is the player to move's.
  const side = board.to_move === "second" ? 1 : 0;
  const moves = element("g", { class: "moves" }, svg);
  for (const { move, place } of board.moves) {
    if (place.kind !== "sow") {
      continue;
    }
    const [x, y] = at(side, place.pit);
    const pit = back.querySelector(`.pit[data-side="${side}"][data-pit="${place.pit}"]`);
    if (pit) {
      pit.classList.add("sowable");
      clickable(pit, () => context.onMove(move));
    }
    marker(context, moves, move, x, side === 0 ? y + CELL / 2 + MARKERS / 2 : y - CELL / 2 - MARKERS / 2, CELL * 0.24);
  }
  return { width, height };
}
