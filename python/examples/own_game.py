"""A game written in Python, solved by Ludus' engines: tic-tac-toe in a few lines, its positions told apart by
a key that merges the board's eight symmetries, checked against Ludus' own tic-tac-toe.

    pip install ./python
    python python/examples/own_game.py
"""

import ludus

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
# The board's eight symmetries, each a permutation of the cells 0..8.
SYMMETRIES = [
    (0, 1, 2, 3, 4, 5, 6, 7, 8), (2, 1, 0, 5, 4, 3, 8, 7, 6), (6, 7, 8, 3, 4, 5, 0, 1, 2), (0, 3, 6, 1, 4, 7, 2, 5, 8),
    (8, 5, 2, 7, 4, 1, 6, 3, 0), (2, 5, 8, 1, 4, 7, 0, 3, 6), (6, 3, 0, 7, 4, 1, 8, 5, 2), (8, 7, 6, 5, 4, 3, 2, 1, 0),
]


class TicTacToe(ludus.Game):
    """Cells 1..9 row by row; a position is the board as a string of "x", "o" and ".", x to move first."""

    def start(self):
        return "." * 9

    def moves(self, board):
        return [cell + 1 for cell in range(9) if board[cell] == "."]

    def play(self, board, cell):
        mark = "x" if board.count("x") == board.count("o") else "o"
        return board[: cell - 1] + mark + board[cell:]

    def outcome(self, board):
        for a, b, c in LINES:
            if board[a] != "." and board[a] == board[b] == board[c]:
                return -1  # the player who just moved made a line: lost for the player to move
        return 0 if "." not in board else None

    def key(self, board):
        # The smallest image under the symmetries: symmetric boards share a key (and so a value).
        return min("".join(board[cell] for cell in symmetry) for symmetry in SYMMETRIES)


game = TicTacToe()
analysis = game.analyze()
print("tic-tac-toe written in Python:", analysis.value, "| positions searched:", analysis.stats["visited"])
for move in analysis.moves:
    print(f"  {move.move}: {move.value}")
built_in = ludus.load_game("tic-tac-toe").analyze()
assert [(move.move, move.value) for move in analysis.moves] == [(move.move, move.value) for move in built_in.moves]
print("every move's value is that of Ludus' own tic-tac-toe")
# After x 1, o 4, x 2, o 5: x wins at once at 3, and every other move loses or draws; the same as Ludus' own.
board = "xx.oo...."
mine, theirs = game.analyze(board), ludus.load_game("tic-tac-toe").analyze("1425")
print("after 1 4 2 5:", mine.value, "| best:", [move.move for move in mine.best_moves])
assert [(move.move, move.value) for move in mine.moves] == [(move.move, move.value) for move in theirs.moves]
