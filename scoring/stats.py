"""Per-seat records drawn from the engine's result, kept with each seat for stats pages."""

EXACT = {"bid_exact", "zero_exact"}


def seat_records(game: str, result: dict, name: str) -> dict:
    """Return the game's own records for one seat: X-Trems, streaks, failed declarations…"""
    rules = [d["rule"] for r in result["rounds"] for d in r["details"].get(name, [])]
    if game == "numx":
        return {"xtrem": rules.count("xtrem")}
    if game == "numking":
        exact = sum(1 for rule in rules if rule in EXACT)
        bids = sum(1 for r in result["rounds"] if name in r["points"])
        return {"longest_streak": result.get("streaks", {}).get(name, 0), "exact_bids": exact, "bids": bids}
    if game == "numwin":
        return {"failed_declarations": rules.count("declarer_failed")}
    if game == "coop":
        summary = result.get("summary") or {}
        if summary.get("mode") == "cooperatif":
            return {"games": summary.get("games", 0), "wins": summary.get("wins", 0)}
        return {"games": summary.get("games", 0), "wins": (summary.get("wins") or {}).get(name, 0)}
    return {}
