// LivePairing module: see DECISIONS.md for its concern.
