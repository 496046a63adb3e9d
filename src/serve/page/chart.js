// The value history: every position of the game so far by move number, placed by its value for the first
// player (first player's wins above, the second's below, draws on the middle line; a win is nearer its edge
// the fewer plies it takes; a score or a probability is placed by its number instead), each point in the
// colour of its value for the first player, and the mistakes (a move whose value is worse than the
// position's; never an outcome of chance, which nobody chooses) marked with a cross. Who moves at each
// position is the board's word, so turns need not alternate.

import { colour, describe, isOutcome, rank, seenByOther, valueScale } from "./values.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 720;
const HEIGHT = 230;
const LEFT = 118;
const RIGHT = 18;
const TOP = 18;
const BOTTOM = 34;

function element(tag, attributes, parent) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    node.setAttribute(name, String(value));
  }
  parent.appendChild(node);
  return node;
}

/**
 * Whether the move `played` of a position valued `position` (for its mover) was a mistake: a move whose value
 * is of a worse word, or of a lower score or probability (by more than their error). An outcome of chance is
 * nobody's mistake.
 */
export function isMistake(position, played) {
  if (!position || !played || isOutcome(played)) {
    return false;
  }
  const [before, after] = [rank(position.value), rank(played.value)];
  if (before !== null && after !== null && after < before) {
    return true;
  }
  const error = Math.max(1e-9, 2 * (position.error ?? 0) + 2 * (played.error ?? 0));
  for (const field of ["score", "probability", "expected_score"]) {
    if (typeof position[field] === "number" && typeof played[field] === "number") {
      return played[field] < position[field] - error;
    }
  }
  return false;
}

/**
 * The height of a value for the first player (`first`: the value as the first player sees it), from -1 (the
 * second player wins at once) to 1 (the first does); `scale` is the largest remoteness, absolute score and
 * absolute expected score of the history.
 */
function height(first, scale) {
  if (typeof first.score === "number") {
    return first.score / scale.score;
  }
  if (typeof first.probability === "number") {
    return 2 * first.probability - 1;
  }
  if (typeof first.expected_score === "number") {
    return first.expected_score / scale.expected;
  }
  const word = first.value;
  if (word === "draw" || rank(word) === null) {
    return 0;
  }
  const remoteness = typeof first.remoteness === "number" ? first.remoteness : scale.remoteness / 2;
  const closeness = 1 - remoteness / (scale.remoteness + 1);
  return (word === "win" ? 1 : -1) * (0.3 + 0.7 * closeness);
}

/**
 * Draws `history` into `svg`: one entry per position from the start, `{analysis, moverIsFirst, played}`
 * (analysis null while it is being asked for; `played` the move made from it, if any). `current` is the
 * position shown; `onPick(ply)` goes to a position.
 */
export function drawChart(svg, history, current, onPick) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  const known = history.filter((entry) => entry.analysis);
  const forFirst = (entry) => (entry.moverIsFirst ? entry.analysis : seenByOther(entry.analysis));
  const scale = { remoteness: 1, score: 1, expected: 1e-9 };
  for (const { analysis } of known) {
    if (typeof analysis.remoteness === "number") {
      scale.remoteness = Math.max(scale.remoteness, analysis.remoteness);
    }
    if (typeof analysis.score === "number") {
      scale.score = Math.max(scale.score, Math.abs(analysis.score));
    }
    if (typeof analysis.expected_score === "number") {
      scale.expected = Math.max(scale.expected, Math.abs(analysis.expected_score));
    }
  }
  const plies = Math.max(history.length - 1, 1);
  const x = (ply) => LEFT + ((WIDTH - LEFT - RIGHT) * ply) / plies;
  const middle = TOP + (HEIGHT - TOP - BOTTOM) / 2;
  const y = (level) => middle - level * ((HEIGHT - TOP - BOTTOM) / 2);
  const axes = element("g", { class: "axes" }, svg);
  for (const [level, text] of [[1, "first player wins"], [0, "draw"], [-1, "second player wins"]]) {
    element("line", { x1: LEFT, x2: WIDTH - RIGHT, y1: y(level), y2: y(level), class: level === 0 ? "axis middle" : "axis" }, axes);
    element("text", { x: LEFT - 8, y: y(level) + 4, class: "axis-label" }, axes).textContent = text;
  }
  const step = Math.max(1, Math.ceil(plies / 12));
  for (let ply = 0; ply <= plies; ply += step) {
    element("text", { x: x(ply), y: HEIGHT - 12, class: "tick" }, axes).textContent = String(ply);
  }
  element("text", { x: WIDTH - RIGHT, y: HEIGHT - 1, class: "tick end" }, axes).textContent = "moves played";
  const points = known.map((entry) => [x(entry.ply), y(height(forFirst(entry), scale))]);
  if (points.length > 1) {
    element("polyline", { points: points.map((point) => point.join(",")).join(" "), class: "trace" }, svg);
  }
  // Colours by the value for the first player, so shades compare across the whole history.
  const shades = valueScale(known.map(forFirst));
  const dots = element("g", { class: "points" }, svg);
  for (const entry of history) {
    if (!entry.analysis) {
      continue;
    }
    const { analysis, ply, moverIsFirst } = entry;
    const seen = forFirst(entry);
    const [px, py] = [x(ply), y(height(seen, scale))];
    const first = seen.value;
    const dot = element("circle", {
      cx: px,
      cy: py,
      r: ply === current ? 7 : 5,
      fill: colour(seen, shades),
      class: ply === current ? "point current" : "point",
      "data-ply": ply,
      "data-value": analysis.value,
      "data-first": first,
      "data-remoteness": analysis.remoteness ?? "",
    }, dots);
    const mover = moverIsFirst ? "first" : "second";
    element("title", {}, dot).textContent = `after ${ply} moves: ${describe(analysis)} for the ${mover} player to move`;
    dot.addEventListener("click", () => onPick(ply));
    const played = entry.played && analysis.moves.find((move) => move.move === entry.played);
    if (played && isMistake(analysis, played)) {
      const [mx, my] = [x(ply + 0.5), TOP + 2];
      const cross = element("g", { class: "mistake", "data-ply": ply }, svg);
      element("line", { x1: mx, x2: mx, y1: my + 8, y2: HEIGHT - BOTTOM, class: "mistake-line" }, cross);
      element("path", { d: `M${mx - 5} ${my - 5}L${mx + 5} ${my + 5}M${mx + 5} ${my - 5}L${mx - 5} ${my + 5}`, class: "cross" }, cross);
      element("title", {}, cross).textContent = `move ${ply + 1} (${played.move}) was a mistake: ${describe(played)} where ${describe(analysis)} was possible`;
    }
  }
}
