// The board, drawn as SVG from the API's board view: a grid (squares, an upright frame of columns, or points
// joined by lines) with pieces, heaps of tokens, a mancala's pits (pits.js), the edges between dots and the
// boxes they close (edges.js) or a panel of numbers (panel.js).
// Each legal move is drawn where it is made, in its value's colour, and takes a click: a placement on its
// cell, a drop on its column, a step on its piece and then on its target, a take on its chip under the heap,
// a sow on its pit, an edge on its line; a move made nowhere on the board (a pass, a dice game's choices, the
// outcomes of chance) is a button below it, and at a chance node a button lets chance decide.

import { drawEdges } from "./edges.js";
import { drawPanel } from "./panel.js";
import { drawPits } from "./pits.js";
import { BUTTON_HEIGHT, button, buttonWidth, clickable, element, marker, PLAYER_FILL, PLAYER_INK, tooltip } from "./svg.js";
import { colour, compare, isChanceNode, valueScale } from "./values.js";

const CELL = 64;
const MARGIN = 40;

/**
 * Draws `answer`'s board into `svg` (emptied first). `view.showValues` colours the moves; `view.selected` is
 * the cell whose steps are shown. `actions.onMove(text)` plays a move, `actions.onSelect(cell)` selects a
 * piece (null: none), `actions.onRoll()` lets chance decide at a chance node. Returns false when the game has
 * no board (then the page shows its text).
 */
export function drawBoard(svg, answer, view, actions) {
  svg.replaceChildren();
  const board = answer.board;
  if (!board) {
    return false;
  }
  const values = new Map(answer.analysis.moves.map((move) => [move.move, move]));
  const scale = valueScale(answer.analysis.moves);
  const paint = (move) => {
    const value = values.get(move);
    return view.showValues && value ? colour(value, scale) : "hsl(210 15% 70%)";
  };
  const context = { svg, board, values, paint, view, onMove: actions.onMove, onSelect: actions.onSelect };
  const draw = { heaps: drawHeaps, pits: drawPits, edges: drawEdges, panel: drawPanel }[board.kind] ?? drawGrid;
  const size = draw(context);
  const bottom = drawChoices(context, size, answer, actions.onRoll);
  svg.setAttribute("viewBox", `0 0 ${size.width} ${bottom}`);
  svg.setAttribute("data-kind", board.kind === "grid" ? `grid-${board.style}` : board.kind);
  return true;
}

/**
 * The moves made beside the board, as buttons in rows below it (`size`: the board's width and height), and at
 * a chance node first the button that lets chance decide. Returns the new height.
 */
function drawChoices(context, size, answer, onRoll) {
  const choices = context.board.moves.filter(({ place }) => place.kind === "choice").map(({ move }) => move);
  if (!choices.length) {
    return size.height;
  }
  const group = element("g", { class: "choices" }, context.svg);
  const gap = 12;
  let [x, y] = [20, size.height + 4];
  const place = (width) => {
    if (x + width > size.width - 10 && x > 20) {
      [x, y] = [20, y + BUTTON_HEIGHT + gap];
    }
    const at = [x, y];
    x += width + gap;
    return at;
  };
  const moves = answer.analysis.moves;
  if (isChanceNode(moves)) {
    const label = "chance decides";
    const width = buttonWidth(label);
    const [left, top] = place(width);
    const roll = element("g", { class: "roll", "data-roll": "" }, group);
    element("rect", { x: left, y: top, width, height: BUTTON_HEIGHT, rx: 9, class: "roll-box" }, roll);
    element("text", { x: left + width / 2, y: top + 19, class: "roll-label" }, roll).textContent = "roll";
    element("text", { x: left + width / 2, y: top + 37, class: "roll-note" }, roll).textContent = label;
    tooltip(roll, "an outcome drawn by its probability");
    clickable(roll, onRoll);
  }
  for (const move of choices) {
    button(context, group, move, ...place(buttonWidth(move)));
  }
  return y + BUTTON_HEIGHT + 16;
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
  return { width, height };
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
    ring.setAttribute("stroke", best && view.showValues ? colour(best, valueScale(context.values.values())) : "hsl(210 15% 55%)");
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
  return { width, height: Math.max(y - 10, 60) };
}
