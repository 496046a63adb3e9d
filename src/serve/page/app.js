// The explorer's page: the game and its parameters, the position (a position text and the moves played from
// it, both in the URL), the board with every move's value, undo and redo, the perfect player on either side,
// the analysis and the value history. Every value comes from the server's API (POST /api/position). At a
// chance node the person picks the outcome, or lets chance decide (an outcome drawn by its probability); the
// perfect player never chooses an outcome: at its own chance nodes it lets chance decide.

import { drawBoard } from "./board.js";
import { drawChart } from "./chart.js";
import { ask as askServer, requestKey } from "./api.js";
import { colour, describe, drawOutcome, finalWord, isChanceNode, shadeNote, valueScale } from "./values.js";

const $ = (id) => document.getElementById(id);

/** What the page shows. */
const state = {
  games: [],
  limits: null,
  game: "",
  position: null,
  moves: [],
  redo: [],
  computer: "none",
  showValues: true,
  selected: null,
  current: null,
  /** Answers by request, so that undo, redo and the history ask the server once per position. */
  answers: new Map(),
  /** Bumped by every change of position: an answer for an older one is dropped. */
  generation: 0,
};

/** The answer for a position, from the page's cache or the server (`askServer`). */
function ask(game, position, moves, onPartial = () => true) {
  return askServer(state.answers, game, position, moves, onPartial);
}

/** Whether the first player is to move after `ply` moves: as the board says, else by turns. */
function firstToMove(answer, ply) {
  const mover = answer?.board?.to_move;
  return mover ? mover === "first" : ply % 2 === 0;
}

function cachedAt(ply) {
  return state.answers.get(requestKey(state.game, state.position, state.moves.slice(0, ply))) ?? null;
}

/**
 * A move as the URL writes it: the moves are joined by spaces, so a space within a move (Hog's `roll 3`) is
 * written `%20`, and a `%` as `%25`.
 */
function escapeMove(move) {
  return move.replaceAll("%", "%25").replaceAll(" ", "%20");
}

function unescapeMove(text) {
  return text.replace(/%(20|25)/g, (_, code) => (code === "20" ? " " : "%"));
}

/** The game, position and moves in the URL, so that the page can be linked. */
function writeLocation() {
  const parameters = new URLSearchParams({ game: state.game });
  if (state.position !== null) {
    parameters.set("position", state.position);
  }
  if (state.moves.length) {
    parameters.set("moves", state.moves.map(escapeMove).join(" "));
  }
  if (state.computer !== "none") {
    parameters.set("computer", state.computer);
  }
  history.replaceState(null, "", `#${parameters}`);
  $("link").href = location.href;
}

function readLocation() {
  const parameters = new URLSearchParams(location.hash.slice(1));
  state.game = parameters.get("game") || state.startGame;
  state.position = parameters.get("position");
  state.moves = (parameters.get("moves") ?? "").split(" ").filter(Boolean).map(unescapeMove);
  const computer = parameters.get("computer");
  state.computer = computer === "first" || computer === "second" ? computer : "none";
  $("computer").value = state.computer;
}

/** Asks for the position shown and draws it, then the history, then lets the perfect player move. */
async function show() {
  const generation = ++state.generation;
  state.selected = null;
  writeLocation();
  $("status").textContent = "Thinking…";
  $("status").classList.add("busy");
  let answer;
  const partial = (found) => {
    if (generation !== state.generation) {
      return false;
    }
    state.current = found;
    render();
    computerMove(generation);
    return generation === state.generation;
  };
  try {
    answer = await ask(state.game, state.position, state.moves, partial);
  } catch (failure) {
    if (generation === state.generation) {
      showError(failure);
    }
    return;
  }
  if (!answer || generation !== state.generation) {
    return;
  }
  $("error").hidden = true;
  state.current = answer;
  if (answer.game !== state.game) {
    state.game = answer.game;
    writeLocation();
    showParameters(state.game);
  }
  render();
  await fillHistory(generation);
  if (generation === state.generation) {
    computerMove(generation);
  }
}

function showError(failure) {
  $("status").classList.remove("busy");
  $("status").textContent = "No answer for this position.";
  const box = $("error");
  box.hidden = false;
  box.dataset.kind = failure.kind ?? "";
  box.textContent = failure.message;
  if (failure.kind === "time" || failure.kind === "busy") {
    const retry = document.createElement("button");
    retry.type = "button";
    retry.textContent = "Ask again";
    retry.addEventListener("click", show);
    box.append(" ", retry);
  }
  renderControls();
}

/** The history's answers, asked for one position at a time, the chart redrawn as they come. */
async function fillHistory(generation) {
  drawHistory();
  for (let ply = 0; ply < state.moves.length; ply++) {
    if (cachedAt(ply)) {
      continue;
    }
    try {
      await ask(state.game, state.position, state.moves.slice(0, ply));
    } catch {
      // A position the server cannot value stays out of the chart.
    }
    if (generation !== state.generation) {
      return;
    }
    drawHistory();
  }
}

function drawHistory() {
  const history = [];
  for (let ply = 0; ply <= state.moves.length; ply++) {
    const answer = cachedAt(ply);
    history.push({
      ply,
      analysis: answer ? answer.analysis : null,
      moverIsFirst: firstToMove(answer, ply),
      played: state.moves[ply] ?? null,
    });
  }
  drawChart($("chart"), history, state.moves.length, goTo);
}

function isOver(answer) {
  return answer.complete !== false && answer.analysis.moves.length === 0;
}

/** The progress line of a search under way: what it searches, the positions and their rate. */
function progressText(answer) {
  const { searching, positions, rate, seconds } = answer.progress;
  const count = answer.analysis.moves.length;
  const total = answer.board ? answer.board.moves.length : "?";
  return `Searching ${searching}: ${positions.toLocaleString()} positions in ${seconds.toFixed(1)} s (${Math.round(rate).toLocaleString()} a second); ${count} of ${total} moves valued.`;
}

/** The status line: who is to move and the position's value, or how the game ended. */
function statusText(answer) {
  const first = firstToMove(answer, state.moves.length);
  const mover = first ? "First player" : "Second player";
  const other = first ? "second player" : "first player";
  const value = answer.analysis;
  if (isOver(answer)) {
    const margin = typeof value.score === "number" && value.score !== 0 ? ` by ${Math.abs(value.score)}` : "";
    const word = finalWord(value);
    const result = { win: `${mover.toLowerCase()} wins${margin}`, loss: `the ${other} wins${margin}`, draw: "a draw" }[word] ?? word;
    return `Game over after ${state.moves.length} moves: ${result}.`;
  }
  const who = state.computer === (first ? "first" : "second") ? " (the perfect player)" : "";
  if (value.value === undefined) {
    return `${mover}${who} to move: the position's value is being searched.`;
  }
  if (isChanceNode(answer.analysis.moves)) {
    return `${mover}${who}: chance decides (pick the outcome, or roll): ${describe(value)} for them.`;
  }
  return `${mover}${who} to move: ${describe(value)} for them.`;
}

function render() {
  const answer = state.current;
  if (!answer) {
    return;
  }
  const searching = answer.complete === false;
  $("status").classList.toggle("busy", searching);
  $("status").textContent = statusText(answer);
  $("progress").hidden = !searching;
  $("progress").textContent = searching ? progressText(answer) : "";
  const view = { showValues: state.showValues, selected: state.selected };
  const drawn = drawBoard($("board"), answer, view, {
    onMove: play,
    onSelect: (cell) => {
      state.selected = cell;
      render();
    },
    onRoll: () => play(drawOutcome(answer.analysis.moves)),
  });
  $("legend-note").textContent = shadeNote(answer.analysis.moves[0] ?? answer.analysis);
  $("board").hidden = !drawn;
  $("no-board").hidden = drawn;
  renderAnalysis(answer);
  renderControls();
}

function renderAnalysis(answer) {
  const analysis = answer.analysis;
  const known = analysis.value !== undefined;
  $("value").textContent = known ? `${describe(analysis)} for the player to move` : "Searching the position's value…";
  $("value").dataset.value = analysis.value ?? "";
  const fromBook = analysis.book_values ? ` (${analysis.book_values} from the opening book)` : "";
  $("source").textContent = answer.source === "database"
    ? "Values read from the solved database."
    : answer.complete === false
      ? "Values arrive as each move's search ends."
      : `Values from a search of ${analysis.stats.visited.toLocaleString()} positions${fromBook}.`;
  const list = $("moves");
  list.replaceChildren();
  const scale = valueScale(analysis.moves);
  for (const move of analysis.moves) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = move.best ? "move-chip best" : "move-chip";
    button.dataset.move = move.move;
    button.dataset.value = move.value;
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = state.showValues ? colour(move, scale) : "";
    button.append(swatch, `${move.move}`);
    const text = document.createElement("span");
    text.className = "chip-value";
    const book = move.book ? ", book" : "";
    text.textContent = state.showValues ? ` ${describe(move)}${move.best ? ", best" : ""}${book}` : "";
    button.append(text);
    button.addEventListener("click", () => play(move.move));
    item.append(button);
    list.append(item);
  }
  if (!analysis.moves.length) {
    list.textContent = answer.complete === false ? "No move valued yet." : "No move: the game is over.";
  }
  const noLine = answer.complete === false ? "(searched once every move has its value)" : isOver(answer) ? "(the game is over)" : "(chance decides the next move)";
  $("line").textContent = analysis.line.length ? analysis.line.join(" ") : noLine;
  $("drawing").textContent = analysis.drawing;
  $("played").textContent = state.moves.length
    ? `Moves played: ${state.moves.join(" ")}`
    : "No move played yet.";
  $("position-input").value = state.position ?? "";
}

function renderControls() {
  $("undo").disabled = state.moves.length === 0;
  $("redo").disabled = state.redo.length === 0;
  $("restart").disabled = state.moves.length === 0 && state.redo.length === 0;
}

/** Plays `move` (its text) at the position shown. */
function play(move) {
  state.moves.push(move);
  state.redo = [];
  show();
}

function undo() {
  if (!state.moves.length) {
    return;
  }
  state.redo.push(state.moves.pop());
  // Against the perfect player, back to a position where the person is to move.
  while (state.computer !== "none" && state.moves.length) {
    const first = firstToMove(cachedAt(state.moves.length), state.moves.length);
    if ((first ? "first" : "second") !== state.computer) {
      break;
    }
    state.redo.push(state.moves.pop());
  }
  show();
}

function redo() {
  if (state.redo.length) {
    state.moves.push(state.redo.pop());
    show();
  }
}

/** Goes to the position after `ply` moves, keeping the later moves for redo. */
function goTo(ply) {
  while (state.moves.length > ply) {
    state.redo.push(state.moves.pop());
  }
  show();
}

/**
 * The perfect player's move, when it is its turn and the person is not replaying moves taken back: a best
 * move, or at its own chance node an outcome drawn by its probability (it never chooses the dice).
 */
function computerMove(generation) {
  const answer = state.current;
  if (!answer || isOver(answer) || state.redo.length || state.computer === "none") {
    return;
  }
  const first = firstToMove(answer, state.moves.length);
  if ((first ? "first" : "second") !== state.computer) {
    return;
  }
  // Under way, a move is played once it is proven best: its value is the position's.
  if (answer.complete === false && isChanceNode(answer.analysis.moves)) {
    return;
  }
  const move = isChanceNode(answer.analysis.moves) ? drawOutcome(answer.analysis.moves) : answer.analysis.moves.find((entry) => entry.best)?.move;
  if (move) {
    setTimeout(() => {
      if (generation === state.generation) {
        play(move);
      }
    }, 300);
  }
}

/** The registration of the game named by `spec` (`name` or `name:key=value,...`). */
function registration(spec) {
  const name = spec.split(":")[0];
  return state.games.find((game) => game.name === name);
}

/** The parameters' inputs of the game named by `spec`, holding its values (defaults for those not given). */
function showParameters(spec) {
  const game = registration(spec);
  const box = $("parameters");
  box.replaceChildren();
  if (!game) {
    return;
  }
  $("game-select").value = game.name;
  const given = new Map();
  for (const pair of (spec.split(":")[1] ?? "").split(",").filter(Boolean)) {
    const [key, value] = pair.split("=");
    given.set(key, value ?? "on");
  }
  for (const parameter of game.parameters) {
    const label = document.createElement("label");
    label.title = parameter.help;
    let input;
    if (parameter.kind === "choice" || parameter.kind === "switch") {
      input = document.createElement("select");
      for (const choice of parameter.range.choices) {
        input.append(new Option(choice, choice));
      }
    } else {
      input = document.createElement("input");
      input.type = parameter.kind === "whole" ? "number" : "text";
      if (parameter.kind === "whole") {
        input.min = parameter.range.min;
        input.max = parameter.range.max;
      }
    }
    input.name = parameter.name;
    input.dataset.parameter = parameter.name;
    input.value = given.get(parameter.name) ?? parameter.default;
    label.append(`${parameter.name} `, input);
    box.append(label);
  }
  $("summary").textContent = game.summary;
}

/** The game named by the form: its name and every parameter. */
function specOfForm() {
  const name = $("game-select").value;
  const values = [...$("parameters").querySelectorAll("[data-parameter]")].map((input) => `${input.dataset.parameter}=${input.value.trim()}`);
  return values.length ? `${name}:${values.join(",")}` : name;
}

function newGame(spec, position = null) {
  state.game = spec;
  state.position = position;
  state.moves = [];
  state.redo = [];
  show();
}

async function start() {
  const response = await fetch("/api/games");
  const body = await response.json();
  state.games = body.games;
  state.limits = body.limits;
  state.startGame = body.start_game;
  for (const game of state.games) {
    const served = game.served.length ? ` (database: ${game.served.join(", ")})` : "";
    $("game-select").append(new Option(`${game.name}${served}`, game.name));
  }
  readLocation();
  showParameters(state.game);
  $("game-select").addEventListener("change", () => showParameters($("game-select").value));
  $("game-form").addEventListener("submit", (event) => {
    event.preventDefault();
    newGame(specOfForm());
  });
  $("position-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("position-input").value.trim();
    newGame(state.game, text === "" ? null : text);
  });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("restart").addEventListener("click", () => goTo(0));
  $("computer").addEventListener("change", () => {
    state.computer = $("computer").value;
    state.redo = [];
    show();
  });
  $("show-values").addEventListener("change", () => {
    state.showValues = $("show-values").checked;
    render();
  });
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) {
      return;
    }
    if (event.key === "ArrowLeft") {
      undo();
    } else if (event.key === "ArrowRight") {
      redo();
    }
  });
  window.addEventListener("hashchange", () => {
    if (location.hash.slice(1) !== new URL($("link").href).hash.slice(1)) {
      readLocation();
      showParameters(state.game);
      state.redo = [];
      show();
    }
  });
  for (const swatch of document.querySelectorAll("#legend .swatch[data-word]")) {
    swatch.style.background = colour({ value: swatch.dataset.word, remoteness: null }, {});
  }
  await show();
}

start().catch((error) => {
  $("status").textContent = `The page could not start: ${error.message}`;
});
