// The board, drawn as SVG from the API's board view: a grid (squares, an upright frame of columns, or points
// joined by lines) with pieces, or heaps of tokens. Each legal move is drawn where it is made, in its value's
// colour, and takes a click: a placement on its cell, a drop on its column, a step on its piece and then on
// its target, a take on its chip under the heap.

import { badge, colour, compare, describe, remotenessScale } from "./values.js";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 64;
const MARGIN = 40;
/** The players' colours: never a value's (green, yellow, red). */
export const PLAYER_FILL = { first: "#2447a8", second: "#f3efe4" };
const PLAYER_INK = { first: "#2447a8", second: "#3a3a3a" };

/** An SVG element with attributes, appended to `parent`. */
function element(tag, attributes, parent) {
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
function tooltip(node, text) {
  element("title", {}, node).textContent = text;
}

/**
 * Draws `answer`'s board into `svg` (emptied first). `view.showValues` colours the moves; `view.selected` is
 * the cell whose steps are shown; `onMove(text)` plays a move, `onSelect(cell)` selects a piece (null: none).
 * Returns false when the game has no board (then the page shows its text).
 */
export function drawBoard(svg, answer, view, onMove, onSelect) {
  svg.replaceChildren();
  const board = answer.board;
  if (!board) {
    return false;
  }
  const values = new Map(answer.analysis.moves.map((move) => [move.move, move]));
  const scale = remotenessScale(answer.analysis.moves);
  const paint = (move) => {
    const value = values.get(move);
    return view.showValues && value ? colour(value, scale) : "hsl(210 15% 70%)";
  };
  const context = { svg, board, values, paint, view, onMove, onSelect };
  if (board.kind === "heaps") {
    drawHeaps(context);
  } else {
    drawGrid(context);
  }
  return true;
}

/** A move's marker: a disc in its value's colour with its badge, playing the move on a click. */
function marker(context, group, move, x, y, radius) {
  const value = context.values.get(move);
  const node = element("g", { class: "move", "data-move": move, tabindex: 0, role: "button" }, group);
  const disc = element("circle", { cx: x, cy: y, r: radius, fill: context.paint(move) }, node);
  if (value) {
    node.setAttribute("data-value", value.value);
    node.setAttribute("data-remoteness", value.remoteness ?? "");
    disc.setAttribute("class", value.best ? "marker best" : "marker");
    if (context.view.showValues) {
      const label = element("text", { x, y: y + 5, class: "badge" }, node);
      label.textContent = badge(value);
    }
    tooltip(node, `${move}: ${describe(value)}${value.best ? " (best)" : ""}`);
  }
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    context.onMove(move);
  });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      context.onMove(move);
    }
  });
  return node;
}

/** The centre of cell `cell` of a grid of `columns`. */
function centre(cell, columns) {
  return [MARGIN + (cell % columns) * CELL + CELL / 2, MARGIN + Math.floor(cell / columns) * CELL + CELL / 2];
}

function drawGrid(context) {
  const { svg, board } = context;
  const { rows, columns, style } = board;
  const width = columns * CELL + 2 * MARGIN;
  const height = rows * CELL + 2 * MARGIN;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("data-kind", `grid-${style}`);
  const back = element("g", { class: `grid ${style}` }, svg);
  back.addEventListener("click", () => context.onSelect(null));
  if (style === "columns") {
    element("rect", { x: MARGIN - 8, y: MARGIN - 8, width: columns * CELL + 16, height: rows * CELL + 16, rx: 14, class: "frame" }, back);
  } else if (style === "points") {
    const first = centre(0, columns);
    const last = centre(rows * columns - 1, columns);
    element("rect", { x: MARGIN, y: MARGIN, width: columns * CELL, height: rows * CELL, rx: 8, class: "ground" }, back);
    for (let row = 0; row < rows; row++) {
      const [, y] = centre(row * columns, columns);
      element("line", { x1: first[0], y1: y, x2: last[0], y2: y, class: "line" }, back);
    }
    for (let column = 0; column < columns; column++) {
      const [x] = centre(column, columns);
      element("line", { x1: x, y1: first[1], x2: x, y2: last[1], class: "line" }, back);
    }
    element("line", { x1: first[0], y1: first[1], x2: last[0], y2: last[1], class: "line" }, back);
    element("line", { x1: last[0], y1: first[1], x2: first[0], y2: last[1], class: "line" }, back);
  }
  for (let cell = 0; cell < rows * columns; cell++) {
    const [x, y] = centre(cell, columns);
    if (style === "squares") {
      const dark = (Math.floor(cell / columns) + (cell % columns)) % 2 === 1;
      element("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, class: dark ? "square dark" : "square" }, back);
    } else if (style === "columns") {
      element("circle", { cx: x, cy: y, r: CELL * 0.4, class: "hole" }, back);
    } else {
      element("circle", { cx: x, cy: y, r: 6, class: "grid-point" }, back);
    }
  }
  drawLabels(back, board);
  const pieces = element("g", { class: "pieces" }, svg);
  board.cells.forEach((piece, cell) => {
    if (piece) {
      drawPiece(pieces, piece, ...centre(cell, columns), cell);
    }
  });
  drawMoves(context);
}

function drawLabels(group, board) {
  const { rows, columns } = board;
  board.column_labels.forEach((label, column) => {
    const [x] = centre(column, columns);
    element("text", { x, y: MARGIN + rows * CELL + 28, class: "label" }, group).textContent = label;
  });
  board.row_labels.forEach((label, row) => {
    const [, y] = centre(row * columns, columns);
    element("text", { x: MARGIN - 22, y: y + 5, class: "label" }, group).textContent = label;
  });
}

function drawPiece(group, piece, x, y, cell) {
  const node = element("g", { class: `piece ${piece.player}`, "data-cell": cell, "data-player": piece.player }, group);
  const ink = PLAYER_INK[piece.player];
  const fill = PLAYER_FILL[piece.player];
  const size = CELL * 0.3;
  switch (piece.shape) {
    case "cross":
      element("path", { d: `M${x - size} ${y - size}L${x + size} ${y + size}M${x + size} ${y - size}L${x - size} ${y + size}`, stroke: ink, class: "mark" }, node);
      break;
    case "nought":
      element("circle", { cx: x, cy: y, r: size, stroke: ink, class: "mark" }, node);
      break;
    case "arrow-up":
    case "arrow-right": {
      const turn = piece.shape === "arrow-up" ? -90 : 0;
      const car = element("g", { transform: `rotate(${turn} ${x} ${y})` }, node);
      element("rect", { x: x - size, y: y - size * 0.7, width: size * 1.6, height: size * 1.4, rx: 6, fill, class: "body" }, car);
      element("path", { d: `M${x + size * 0.6} ${y - size * 0.7}L${x + size * 1.2} ${y}L${x + size * 0.6} ${y + size * 0.7}Z`, fill, class: "body" }, car);
      break;
    }
    default:
      element("circle", { cx: x, cy: y, r: CELL * 0.36, fill, class: "body" }, node);
  }
}

/** The moves of a grid: markers on cells and columns, rings on pieces that step. */
function drawMoves(context) {
  const { svg, board, view } = context;
  const { rows, columns } = board;
  const group = element("g", { class: "moves" }, svg);
  const steps = new Map();
  for (const { move, place } of board.moves) {
    if (place.kind === "place") {
      marker(context, group, move, ...centre(place.cell, columns), CELL * 0.24);
    } else if (place.kind === "drop") {
      let row = rows - 1;
      while (row > 0 && board.cells[row * columns + place.column]) {
        row--;
      }
      const [x, y] = centre(row * columns + place.column, columns);
      const lane = element("rect", { x: x - CELL / 2, y: MARGIN - 8, width: CELL, height: rows * CELL + 16, class: "lane" }, group);
      lane.addEventListener("click", () => context.onMove(move));
      marker(context, group, move, x, y, CELL * 0.3);
    } else if (place.kind === "step") {
      const list = steps.get(place.from) ?? [];
      list.push({ move, to: place.to });
      steps.set(place.from, list);
    }
  }
  for (const [from, list] of steps) {
    const [x, y] = centre(from, columns);
    const best = list.map(({ move }) => context.values.get(move)).filter(Boolean).sort(compare)[0];
    const ring = element("circle", { cx: x, cy: y, r: CELL * 0.44, class: from === view.selected ? "ring selected" : "ring", "data-from": from, tabindex: 0 }, group);
    ring.setAttribute("stroke", best && view.showValues ? colour(best, remotenessScale(context.values.values())) : "hsl(210 15% 55%)");
    tooltip(ring, `${list.length} move${list.length > 1 ? "s" : ""} from here`);
    ring.addEventListener("click", (event) => {
      event.stopPropagation();
      context.onSelect(from === view.selected ? null : from);
    });
  }
  const chosen = steps.get(view.selected);
  if (chosen) {
    const piece = board.cells[view.selected];
    for (const { move, to } of chosen) {
      let [x, y] = to === null ? exit(view.selected, piece, board) : centre(to, columns);
      marker(context, group, move, x, y, CELL * 0.22);
    }
  }
}

/** Where a step off the board is drawn: past the edge the piece faces. */
function exit(from, piece, board) {
  const [x, y] = centre(from, board.columns);
  if (piece && piece.shape === "arrow-up") {
    return [x, MARGIN / 2];
  }
  if (piece && piece.shape === "arrow-right") {
    return [MARGIN + board.columns * CELL + MARGIN / 2, y];
  }
  return [x, MARGIN + board.rows * CELL + MARGIN / 2];
}

/** Heaps: a row of tokens each, and a chip for each move, labelled with what the heap becomes. */
function drawHeaps(context) {
  const { svg, board } = context;
  const shown = Math.min(30, Math.max(1, ...board.heaps));
  const token = 22;
  const left = 70;
  const width = Math.max(left + shown * token + 40, 620);
  const chipsByHeap = board.heaps.map(() => []);
  for (const { move, place } of board.moves) {
    chipsByHeap[place.heap]?.push({ move, label: place.parts.length ? place.parts.join("+") : "–" });
  }
  const group = element("g", { class: "heaps" }, svg);
  let y = 26;
  board.heaps.forEach((size, heap) => {
    element("text", { x: 8, y: y + 6, class: "heap-label" }, group).textContent = `${heap + 1}: ${size}`;
    const tokens = Math.min(size, shown);
    for (let index = 0; index < tokens; index++) {
      element("circle", { cx: left + index * token + token / 2, cy: y, r: token * 0.4, class: "token" }, group);
    }
    if (size > shown) {
      element("text", { x: left + tokens * token + 6, y: y + 6, class: "heap-label" }, group).textContent = "…";
    }
    // The chips, left to right, wrapped at the board's width.
    let [x, row] = [left, y + 34];
    for (const { move, label } of chipsByHeap[heap]) {
      const chipWidth = 40 + 9 * label.length;
      if (x + chipWidth > width && x > left) {
        [x, row] = [left, row + 32];
      }
      const chip = marker(context, group, move, x + 13, row, 13);
      element("text", { x: x + 31, y: row + 5, class: "chip-label" }, chip).textContent = label;
      x += chipWidth;
    }
    y = row + 44;
  });
  svg.setAttribute("viewBox", `0 0 ${width} ${Math.max(y - 10, 60)}`);
  svg.setAttribute("data-kind", "heaps");
}
