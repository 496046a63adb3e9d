// A game played on the edges between dots (Dots and Boxes): the dots, each drawn edge in the colour of the
// player who drew it, each box taken filled in its owner's colour, the columns' letters and the rows' numbers
// as the moves name the dots. Each edge not drawn yet is a move: a dashed line in its value's colour with a
// marker at its middle; a click on the line or the marker draws it.

import { element, marker, PLAYER_INK, tooltip } from "./svg.js";

const CELL = 90;
const MARGIN = 44;

/** The centre of the dot at `row`, `column`. */
function dot(row, column) {
  return [MARGIN + column * CELL, MARGIN + row * CELL];
}

/**
 * The two dots edge `edge` joins, in the board's numbering: the horizontal edges row by row, then the vertical
 * ones row by row.
 */
function ends(edge, rows, columns) {
  const horizontal = (rows + 1) * columns;
  if (edge < horizontal) {
    const [row, column] = [Math.floor(edge / columns), edge % columns];
    return [dot(row, column), dot(row, column + 1)];
  }
  const rest = edge - horizontal;
  const [row, column] = [Math.floor(rest / (columns + 1)), rest % (columns + 1)];
  return [dot(row, column), dot(row + 1, column)];
}

/** Draws the dots, edges and boxes, and the moves on the undrawn edges; returns the board's width and height. */
export function drawEdges(context) {
  const { svg, board } = context;
  const { rows, columns } = board;
  const width = columns * CELL + 2 * MARGIN;
  const height = rows * CELL + 2 * MARGIN;
  const back = element("g", { class: "edges" }, svg);
  element("rect", { x: MARGIN / 3, y: MARGIN / 3, width: width - (2 * MARGIN) / 3, height: height - (2 * MARGIN) / 3, rx: 16, class: "edges-ground" }, back);
  board.boxes.forEach((owner, square) => {
    if (owner) {
      const [x, y] = dot(Math.floor(square / columns), square % columns);
      const taken = element("rect", { x: x + 7, y: y + 7, width: CELL - 14, height: CELL - 14, rx: 6, class: `box ${owner}`, "data-box": square, "data-owner": owner }, back);
      tooltip(taken, `taken by the ${owner} player`);
    }
  });
  board.edges.forEach((player, edge) => {
    if (player) {
      const [[x1, y1], [x2, y2]] = ends(edge, rows, columns);
      const line = element("line", { x1, y1, x2, y2, stroke: PLAYER_INK[player], class: `edge drawn ${player}`, "data-edge": edge, "data-player": player }, back);
      tooltip(line, `drawn by the ${player} player`);
    }
  });
  for (let column = 0; column <= columns; column++) {
    const [x] = dot(0, column);
    element("text", { x, y: height - 8, class: "label" }, back).textContent = String.fromCharCode(97 + column);
  }
  for (let row = 0; row <= rows; row++) {
    const [, y] = dot(row, 0);
    element("text", { x: 12, y: y + 5, class: "label" }, back).textContent = String(row + 1);
  }
  const moves = element("g", { class: "moves" }, svg);
  for (const { move, place } of board.moves) {
    if (place.kind !== "edge") {
      continue;
    }
    const [[x1, y1], [x2, y2]] = ends(place.edge, rows, columns);
    const node = marker(context, moves, move, (x1 + x2) / 2, (y1 + y2) / 2, CELL * 0.2);
    node.setAttribute("data-edge", place.edge);
    // Under the marker: the edge dashed in the move's colour, and a wide transparent line that takes the click.
    const first = node.firstChild;
    node.insertBefore(element("line", { x1, y1, x2, y2, stroke: context.paint(move), class: "edge open" }), first);
    node.insertBefore(element("line", { x1, y1, x2, y2, class: "edge-hit" }), first);
  }
  const dots = element("g", { class: "dots" }, svg);
  for (let row = 0; row <= rows; row++) {
    for (let column = 0; column <= columns; column++) {
      element("circle", { cx: dot(row, column)[0], cy: dot(row, column)[1], r: 7, class: "dot" }, dots);
    }
  }
  return { width, height };
}
