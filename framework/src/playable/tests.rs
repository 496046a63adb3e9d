//! The provided methods of [`super::PlayableGame`] for a game object that implements only the required ones.

use super::*;

/// A game object of another crate that implements only the required methods.
struct Plain;

impl PlayableGame for Plain {
    fn name(&self) -> String {
        "plain".into()
    }

    fn analyze(&self, _: Option<&str>, _: &AnalysisOptions) -> Result<Analysis> {
        Err(Error::GameOver)
    }

    fn session(&self, _: &AnalysisOptions) -> Result<Box<dyn GameSession + '_>> {
        Err(Error::GameOver)
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::win_loss()
    }
}

#[test]
fn a_game_object_without_them_reads_no_moves_and_shows_no_board() {
    let options = AnalysisOptions::default();
    // No moves: `analyze` itself.
    assert!(matches!(Plain.analyze_after(None, &[], &options), Err(Error::GameOver)));
    let error = Plain.analyze_after(None, &["1"], &options).map(|_| ()).unwrap_err().to_string();
    assert_eq!(error, "plain: not a position: this game reads no moves after a position");
    assert_eq!(Plain.board_after(None, &["1"]).ok(), Some(None), "shown by its text only");
}
