"""Translatable strings of the scoring engines (French first, English second).

Every message is a ``str.format`` template; ``t(code, lang, **params)`` renders one.
An unknown language falls back to French, an unknown code to the code itself.
"""

COLOURS = {
    "red": {"fr": "rouge", "en": "red"},
    "blue": {"fr": "bleu", "en": "blue"},
    "green": {"fr": "vert", "en": "green"},
    "yellow": {"fr": "jaune", "en": "yellow"},
}

# Colour names as adjectives after "carte" (feminine in French).
COLOURS_FEM = {
    "red": {"fr": "rouge", "en": "red"},
    "blue": {"fr": "bleue", "en": "blue"},
    "green": {"fr": "verte", "en": "green"},
    "yellow": {"fr": "jaune", "en": "yellow"},
    "rainbow": {"fr": "Rainbow", "en": "rainbow"},
    "shadow": {"fr": "Shadow", "en": "shadow"},
}

EMOJI = {
    "red": "🔴",
    "blue": "🔵",
    "green": "🟢",
    "yellow": "🟡",
    "rainbow": "🌈",
    "shadow": "🌑",
}

SPECIALS = {
    "joker": {"fr": "Joker", "en": "Joker"},
    "infini": {"fr": "∞", "en": "∞"},
    "numx": {"fr": "⚡ Num-X", "en": "⚡ Num-X"},
}

# Specials with their article, used as the subject of a sentence.
SPECIALS_THE = {
    "joker": {"fr": "Le joker", "en": "The joker"},
    "infini": {"fr": "La carte ∞ Infini", "en": "The ∞ Infini card"},
    "numx": {"fr": "La carte ⚡ Num-X", "en": "The ⚡ Num-X card"},
}

ACTIONS = {
    "block": {"fr": "Block", "en": "Block"},
    "flip": {"fr": "Flip", "en": "Flip"},
    "swipe": {"fr": "Swipe", "en": "Swipe"},
    "eclair": {"fr": "Éclair", "en": "Eclair"},
    "quantique": {"fr": "Quantique", "en": "Quantique"},
    "malus": {"fr": "Malus", "en": "Malus"},
    "simple": {"fr": "Simple", "en": "Simple"},
    "double": {"fr": "Double", "en": "Double"},
    "twister": {"fr": "Twister", "en": "Twister"},
    "bombe-x": {"fr": "Bombe-X", "en": "Bombe-X"},
    "tornade": {"fr": "Tornade", "en": "Tornade"},
    "flash": {"fr": "Flash", "en": "Flash"},
    "passe": {"fr": "Passe", "en": "Passe"},
}

# The card picker's name of each card kind: the one table the pages and app.js read (in the
# game's catalogue, embedded in the page). A "colour" card takes a value (tap the colour, then
# the value, its chip shows the value); a "special" card is one tap, its chip shows its short
# name (SPECIALS); action cards are named by ACTIONS.
CARD_LABELS = {
    "red": {"group": "colour", **COLOURS["red"]},
    "blue": {"group": "colour", **COLOURS["blue"]},
    "green": {"group": "colour", **COLOURS["green"]},
    "yellow": {"group": "colour", **COLOURS["yellow"]},
    "rainbow": {"group": "colour", "fr": "Rainbow", "en": "Rainbow"},
    "shadow": {"group": "colour", "fr": "Shadow", "en": "Shadow"},
    # Num King's extra colour family (option extra_family), named by its referee.
    "family": {"group": "colour", "fr": "Famille", "en": "Family"},
    "joker": {"group": "special", **SPECIALS["joker"]},
    "infini": {"group": "special", "fr": "∞ Infini", "en": "∞ Infini"},
    "numx": {"group": "special", **SPECIALS["numx"]},
}


def card_picker(kinds, actions, lang, values=(0, 16)):
    """Return the card picker of a game's catalogue: its values, colours, specials and actions, named in ``lang``."""
    return {
        "values": list(range(values[0], values[1] + 1)),
        "colours": [
            {"kind": k, "label": pick(CARD_LABELS[k], lang)}
            for k in kinds
            if CARD_LABELS.get(k, {}).get("group") == "colour"
        ],
        "specials": [
            {"kind": k, "label": pick(CARD_LABELS[k], lang), "chip": pick(SPECIALS[k], lang)}
            for k in kinds
            if CARD_LABELS.get(k, {}).get("group") == "special"
        ],
        "actions": [{"name": a, "label": pick(ACTIONS[a], lang)} for a in actions],
    }


MESSAGES = {
    # --- the stats pages ------------------------------------------------
    "session_players": {
        "fr": {"one": "{count} joueur", "other": "{count} joueurs"},
        "en": {"one": "{count} player", "other": "{count} players"},
    },
    # --- players -------------------------------------------------------
    "players_type": {
        "fr": "La liste des joueurs doit être une liste de noms.",
        "en": "Players must be a list of names.",
    },
    "players_count": {
        "fr": {
            "one": "Il faut de {min} à {max} joueurs ({count} donné).",
            "other": "Il faut de {min} à {max} joueurs ({count} donnés).",
        },
        "en": {
            "one": "This game needs {min} to {max} players ({count} given).",
            "other": "This game needs {min} to {max} players ({count} given).",
        },
    },
    "players_count_mode": {
        "fr": {
            "one": "Le mode {mode} se joue de {min} à {max} joueurs ({count} donné).",
            "other": "Le mode {mode} se joue de {min} à {max} joueurs ({count} donnés).",
        },
        "en": {
            "one": "Mode {mode} is played by {min} to {max} players ({count} given).",
            "other": "Mode {mode} is played by {min} to {max} players ({count} given).",
        },
    },
    "player_name_invalid": {
        "fr": "Nom de joueur invalide : {name} (un texte non vide est attendu).",
        "en": "Invalid player name: {name} (a non-empty text is expected).",
    },
    "player_name_long": {
        "fr": "Nom trop long : {name} ({length} caractères, au plus {max}).",
        "en": "Name too long: {name} ({length} characters, at most {max}).",
    },
    "player_name_control": {
        "fr": "Nom de joueur « {name} » : il contient un caractère invisible ou de contrôle ({char}) ; retirez-le.",
        "en": "Player name “{name}”: it holds an invisible or control character ({char}); remove it.",
    },
    "player_duplicate": {
        "fr": "Joueur en double : {name}.",
        "en": "Player listed twice: {name}.",
    },
    "unknown_player": {
        "fr": "Joueur inconnu : {name}.",
        "en": "Unknown player: {name}.",
    },
    # --- options -------------------------------------------------------
    "options_type": {
        "fr": "Les options doivent être un objet.",
        "en": "Options must be an object.",
    },
    "option_unknown": {
        "fr": "Option inconnue : {name} ({choices}).",
        "en": "Unknown option: {name} ({choices}).",
    },
    "mode_unknown": {
        "fr": "Mode inconnu : {value} ({choices}).",
        "en": "Unknown mode: {value} ({choices}).",
    },
    "choice_unknown": {
        "fr": "Valeur inconnue pour {option} : {value} ({choices}).",
        "en": "Unknown value for {option}: {value} ({choices}).",
    },
    "bool_type": {
        "fr": "Vrai ou faux attendu : {value}.",
        "en": "True or false expected: {value}.",
    },
    "int_type": {
        "fr": "Nombre entier attendu : {value}.",
        "en": "Whole number expected: {value}.",
    },
    "out_of_range": {
        "fr": "Valeur hors limites : {value} ({min} à {max}).",
        "en": "Value out of range: {value} ({min} to {max}).",
    },
    "teams_type": {
        "fr": "Les équipes doivent associer chaque nom d'équipe à une liste de joueurs.",
        "en": "Teams must map each team name to a list of players.",
    },
    "team_name_invalid": {
        "fr": "Nom d'équipe invalide : {name} (texte non vide de {max} caractères au plus).",
        "en": "Invalid team name: {name} (non-empty text of at most {max} characters).",
    },
    "team_name_control": {
        "fr": "Nom d'équipe « {name} » : il contient un caractère invisible ou de contrôle ({char}) ; retirez-le.",
        "en": "Team name “{name}”: it holds an invisible or control character ({char}); remove it.",
    },
    "team_duplicate": {
        "fr": "Équipe en double : {name}.",
        "en": "Team listed twice: {name}.",
    },
    "team_too_small": {
        "fr": {
            "one": "Équipe trop petite : {team} ({count} joueur, au moins {min}).",
            "other": "Équipe trop petite : {team} ({count} joueurs, au moins {min}).",
        },
        "en": {
            "one": "Team too small: {team} ({count} player, at least {min}).",
            "other": "Team too small: {team} ({count} players, at least {min}).",
        },
    },
    "team_size": {
        "fr": {
            "one": "L'équipe {team} doit compter exactement {size} joueurs ({count} donné).",
            "other": "L'équipe {team} doit compter exactement {size} joueurs ({count} donnés).",
        },
        "en": {
            "one": "Team {team} must have exactly {size} players ({count} given).",
            "other": "Team {team} must have exactly {size} players ({count} given).",
        },
    },
    "team_count": {
        "fr": {
            "one": "Il faut au moins {min} équipes ({count} donnée).",
            "other": "Il faut au moins {min} équipes ({count} données).",
        },
        "en": {
            "one": "At least {min} teams are needed ({count} given).",
            "other": "At least {min} teams are needed ({count} given).",
        },
    },
    "team_count_exact": {
        "fr": {
            "one": "Il faut exactement {count_expected} équipes ({count} donnée).",
            "other": "Il faut exactement {count_expected} équipes ({count} données).",
        },
        "en": {
            "one": "Exactly {count_expected} teams are needed ({count} given).",
            "other": "Exactly {count_expected} teams are needed ({count} given).",
        },
    },
    "player_in_two_teams": {
        "fr": "Joueur dans deux équipes : {name}.",
        "en": "Player in two teams: {name}.",
    },
    "player_without_team": {
        "fr": "Joueur sans équipe : {name}.",
        "en": "Player without a team: {name}.",
    },
    "teams_not_allowed": {
        "fr": "Les équipes ne se jouent pas en mode {mode}.",
        "en": "Teams are not played in mode {mode}.",
    },
    "teams_required": {
        "fr": "Le mode {mode} se joue en équipes de deux : donnez les équipes.",
        "en": "Mode {mode} is played in teams of two: give the teams.",
    },
    "extra_family_players": {
        "fr": "La famille supplémentaire demande au moins 7 joueurs ({count} ici).",
        "en": "The extra colour family needs at least 7 players ({count} here).",
    },
    "binomes_deck": {
        "fr": "Trop de joueurs pour les binômes : {count} × 6 cartes dépassent les {deck} cartes du paquet.",
        "en": "Too many players for pairs: {count} × 6 cards exceed the {deck}-card deck.",
    },
    "end_speedgame": {
        "fr": "Une partie Speed-Game se termine toujours après 2 manches (pas de fin {value}).",
        "en": "A Speed-Game always ends after 2 rounds (no {value} end).",
    },
    "decouverte_adversaire": {
        "fr": "Le mode Découverte ne se joue qu'en Coopératif.",
        "en": "Découverte is only played in Coopératif mode.",
    },
    # --- rounds --------------------------------------------------------
    "rounds_type": {
        "fr": "Les manches doivent être une liste.",
        "en": "Rounds must be a list.",
    },
    "rounds_limit": {
        "fr": "Trop de manches : {count} (au plus {max}).",
        "en": "Too many rounds: {count} (at most {max}).",
    },
    "too_many_rounds": {
        "fr": {
            "one": "Trop de manches : la partie est terminée après la manche {finished} ({count} donnée).",
            "other": "Trop de manches : la partie est terminée après la manche {finished} ({count} données).",
        },
        "en": {
            "one": "Too many rounds: the game is over after round {finished} ({count} given).",
            "other": "Too many rounds: the game is over after round {finished} ({count} given).",
        },
    },
    "round_type": {
        "fr": "Une manche doit être un objet.",
        "en": "A round must be an object.",
    },
    "bid_locked": {
        "fr": "{name} : l'annonce ({bid}) ne change plus une fois les plis saisis.",
        "en": "{name}: the bid ({bid}) can no longer change once the tricks are in.",
    },
    "draft_fields_type": {
        "fr": "Les champs de la manche en cours doivent être un objet JSON.",
        "en": "The fields of the round in progress must be a JSON object.",
    },
    "field_unknown": {
        "fr": "Champ inconnu : {name}.",
        "en": "Unknown field: {name}.",
    },
    "field_required": {
        "fr": "Champ manquant : {name}.",
        "en": "Missing field: {name}.",
    },
    "entries_type": {
        "fr": "Les saisies doivent associer chaque joueur à sa saisie.",
        "en": "Entries must map each player to their entry.",
    },
    "entry_missing": {
        "fr": "Il manque la saisie de {name}.",
        "en": "The entry of {name} is missing.",
    },
    "entry_type": {
        "fr": "La saisie de {name} doit être un objet.",
        "en": "The entry of {name} must be an object.",
    },
    "entry_cards_or_points": {
        "fr": "La saisie de {name} doit donner soit les cartes (cards), soit les points (points).",
        "en": "The entry of {name} must give either the cards or the points.",
    },
    "entry_cards_points_or_counts": {
        "fr": "La saisie de {name} doit donner les cartes (cards), les points (points) "
        "ou le nombre de cartes restantes (numeric et specials).",
        "en": "The entry of {name} must give the cards, the points, or the cards left counted (numeric and specials).",
    },
    # --- cards left counted (Num-X short rules, classic scoring) ---------------
    "counts_mixed": {
        "fr": "{name} : donnez soit le nombre de cartes restantes (numeric, specials), soit {field}, pas les deux.",
        "en": "{name}: give either the cards left counted (numeric, specials) or {field}, not both.",
    },
    "counts_field_unknown": {
        "fr": "{name} : champ inconnu « {field} » (le nombre de cartes se donne par numeric et specials).",
        "en": "{name}: unknown field “{field}” (cards left are counted with numeric and specials).",
    },
    "counts_competition": {
        "fr": "{name} : en décompte compétition chaque carte compte sa valeur ; compter les cartes ne suffit "
        "pas : saisissez les cartes ou les points.",
        "en": "{name}: in competition scoring each card counts its face value; counting the cards is not "
        "enough: enter the cards or the points.",
    },
    "count_missing": {
        "fr": "{name} : il manque le nombre de {what} ({field}).",
        "en": "{name}: the number of {what} is missing ({field}).",
    },
    "count_type": {
        "fr": "{name} : le nombre de {what} doit être un nombre entier ({value}).",
        "en": "{name}: the number of {what} must be a whole number ({value}).",
    },
    "count_negative": {
        "fr": "{name} : le nombre de {what} ne peut pas être négatif ({value}).",
        "en": "{name}: the number of {what} cannot be negative ({value}).",
    },
    "count_above_deck": {
        "fr": "{name} : {value} {what}, c'est plus que le paquet n'en a ({max}).",
        "en": "{name}: {value} {what} is more than the deck holds ({max}).",
    },
    "count_round_total": {
        "fr": "{name} : {count} {what} restantes dans la manche en tout ({names}), le paquet n'en a que {max}.",
        "en": "{name}: {count} {what} left in the round in all ({names}), the deck holds only {max}.",
    },
    "entries_not_allowed": {
        "fr": "En mode Coopératif, on ne saisit que les cartes posées par la table (placed), pas de saisie par joueur.",
        "en": "In Coopératif mode only the cards placed by the table are entered (placed), no entry per player.",
    },
    "not_in_tiebreak": {
        "fr": "{name} ne joue pas la manche de départage.",
        "en": "{name} does not play the tie-break round.",
    },
    "declarer_type": {
        "fr": "Le déclarant doit être un nom de joueur ou rien : {value}.",
        "en": "The declarer must be a player name or nothing: {value}.",
    },
    # --- cards ---------------------------------------------------------
    "cards_type": {
        "fr": "Les cartes doivent être une liste.",
        "en": "Cards must be a list.",
    },
    "too_many_cards": {
        "fr": "Trop de cartes : {count} (au plus {max}).",
        "en": "Too many cards: {count} (at most {max}).",
    },
    "hand_size": {
        "fr": "Main de {count} cartes : au plus {max} ({hand} cartes + 10 erreurs de défausse).",
        "en": "Hand of {count} cards: at most {max} ({hand} cards + 10 discard errors).",
    },
    "card_type": {
        "fr": "Carte invalide : {value} (un objet avec un type « kind » est attendu).",
        "en": "Invalid card: {value} (an object with a “kind” is expected).",
    },
    "card_kind_unknown": {
        "fr": "Type de carte inconnu : {kind} ({choices}).",
        "en": "Unknown card kind: {kind} ({choices}).",
    },
    "card_not_in_game": {
        "fr": "{card} n'existe pas dans {game}.",
        "en": "{card} does not exist in {game}.",
    },
    "action_unknown": {
        "fr": "Action inconnue : {name} ({choices}).",
        "en": "Unknown action: {name} ({choices}).",
    },
    "duplicate_card": {
        "fr": "Carte donnée deux fois : {card}.",
        "en": "Card given twice: {card}.",
    },
    "duplicate_card_other": {
        "fr": "Carte donnée deux fois : {card} (aussi chez {other}).",
        "en": "Card given twice: {card} (also held by {other}).",
    },
    "too_many_copies": {
        "fr": "Trop d'exemplaires de {card} dans la manche : {count} (le paquet en a {max}).",
        "en": "Too many copies of {card} in the round: {count} (the deck has {max}).",
    },
    # --- Num King --------------------------------------------------------
    # Above the cards dealt, a bid (or tricks) is at least 2: only the cards need their plural.
    "bid_above_cards": {
        "fr": {
            "one": "Annonce de {bid} plis pour {cards} carte distribuée.",
            "other": "Annonce de {bid} plis pour {cards} cartes distribuées.",
        },
        "en": {
            "one": "Bid of {bid} tricks for {cards} card dealt.",
            "other": "Bid of {bid} tricks for {cards} cards dealt.",
        },
    },
    "tricks_above_cards": {
        "fr": {
            "one": "{tricks} plis pris pour {cards} carte distribuée.",
            "other": "{tricks} plis pris pour {cards} cartes distribuées.",
        },
        "en": {
            "one": "{tricks} tricks taken for {cards} card dealt.",
            "other": "{tricks} tricks taken for {cards} cards dealt.",
        },
    },
    "tricks_sum": {
        "fr": "Les plis pris ({total}) dépassent les cartes distribuées ({cards}).",
        "en": "The tricks taken ({total}) exceed the cards dealt ({cards}).",
    },
    "cards_schedule": {
        "fr": "Cette manche distribue {expected} cartes, pas {value}.",
        "en": "This round deals {expected} cards, not {value}.",
    },
    # --- Num King's referee: the cards of one trick ----------------------------
    "play_type": {
        "fr": "Chaque carte jouée doit être un objet avec « player » et « card ».",
        "en": "Each play must be an object with “player” and “card”.",
    },
    "trick_player_twice": {
        "fr": "{name} joue deux fois dans ce pli.",
        "en": "{name} plays twice in this trick.",
    },
    "trick_player_missing": {
        "fr": "Il manque la carte de {name} dans ce pli.",
        "en": "The card of {name} is missing from this trick.",
    },
    "trick_card_twice": {
        "fr": "{card} est jouée deux fois dans ce pli (déjà par {other}).",
        "en": "{card} is played twice in this trick (already by {other}).",
    },
    "card_already_played": {
        "fr": "{card} a déjà été jouée dans un pli précédent de la manche.",
        "en": "{card} was already played in an earlier trick of this round.",
    },
    # --- Num King's referee: the tricks of the round in progress (draft field tricks_played) ---
    "tricks_played_type": {
        "fr": "Les plis joués doivent être une liste de plis.",
        "en": "The tricks played must be a list of tricks.",
    },
    "tricks_played_count": {
        "fr": {
            "one": "{count} plis joués pour {cards} carte distribuée : une manche a au plus un pli par carte.",
            "other": "{count} plis joués pour {cards} cartes distribuées : une manche a au plus un pli par carte.",
        },
        "en": {
            "one": "{count} tricks played for {cards} card dealt: a round has at most one trick per card.",
            "other": "{count} tricks played for {cards} cards dealt: a round has at most one trick per card.",
        },
    },
    "trick_type": {
        "fr": "Chaque pli doit être un objet avec « leader » et « plays ».",
        "en": "Each trick must be an object with “leader” and “plays”.",
    },
    "trick_leader": {
        "fr": "Pli {number} : {leader} le mène, sa carte vient en premier (ici celle de {first}).",
        "en": "Trick {number}: {leader} leads it, their card comes first (here {first}'s).",
    },
    "extra_family_off": {
        "fr": "{card} : la famille supplémentaire ne se joue qu'avec son option (7 joueurs ou plus).",
        "en": "{card}: the extra family is only played with its option (7 players or more).",
    },
    "numx_as_missing": {
        "fr": "Num-X : déclarez sa valeur, 0 ou 17 (as).",
        "en": "Num-X: declare its value, 0 or 17 (as).",
    },
    "numx_as": {
        "fr": "Num-X vaut 0 ou 17 (as), pas {value}.",
        "en": "Num-X is worth 0 or 17 (as), not {value}.",
    },
    # --- coop ----------------------------------------------------------
    "adversaire_two_complete": {
        "fr": "Un seul joueur peut poser ses 17 cartes dans une partie : {names}.",
        "en": "Only one player can place all 17 cards in a game: {names}.",
    },
    # --- detail lines (score explanations) -----------------------------
    "d.typed": {
        "fr": "Points saisis à la main : {points}",
        "en": "Points typed by hand: {points}",
    },
    "d.non_numeric": {
        "fr": "{cards}: cartes non numériques → 0",
        "en": "{cards}: non-numeric cards → 0",
    },
    "d.xtrem": {"fr": "{cards}: X-Trem ! → 100", "en": "{cards}: X-Trem! → 100"},
    "d.cancel": {
        "fr": "{cards}: la Shadow annule la Rainbow → 0",
        "en": "{cards}: the shadow cancels the rainbow → 0",
    },
    "d.rainbow": {
        "fr": "{cards}: la Rainbow s'ajoute → {value} × {count} = {points}",
        "en": "{cards}: the rainbow adds up → {value} × {count} = {points}",
    },
    "d.rainbow_alone": {
        "fr": "{cards}: Rainbow seule → {points}",
        "en": "{cards}: lone rainbow → {points}",
    },
    "d.combo": {
        "fr": "{cards}: combinaison de {size} → {value} × {count} = {points}",
        "en": "{cards}: set of {size} → {value} × {count} = {points}",
    },
    "d.pair": {"fr": "{cards}: paire annulée → 0", "en": "{cards}: pair cancelled → 0"},
    "d.shadow_alone": {
        "fr": "{cards}: Shadow sans Rainbow → 0",
        "en": "{cards}: shadow without a rainbow → 0",
    },
    "d.single": {
        "fr": "{cards}: carte seule → {points}",
        "en": "{cards}: single card → {points}",
    },
    "d.same_colour_kept": {
        "fr": "{cards}: plus petite carte {colour} → {points}",
        "en": "{cards}: smallest {colour} card → {points}",
    },
    "d.same_colour_dropped": {
        "fr": "{cards}: même couleur, seule la plus petite compte → 0",
        "en": "{cards}: same colour, only the smallest counts → 0",
    },
    "d.malus_numeric": {
        "fr": {
            "one": "{cards}: {count} carte numérique → {points}",
            "other": "{cards}: {count} cartes numériques → {points}",
        },
        "en": {"one": "{cards}: {count} numeric card → {points}", "other": "{cards}: {count} numeric cards → {points}"},
    },
    "d.malus_special": {
        "fr": {
            "one": "{cards}: {count} carte spéciale ou action × {each} → {points}",
            "other": "{cards}: {count} cartes spéciales ou action × {each} → {points}",
        },
        "en": {
            "one": "{cards}: {count} special or action card × {each} → {points}",
            "other": "{cards}: {count} special or action cards × {each} → {points}",
        },
    },
    "d.malus_numeric_counted": {
        "fr": {"one": "{count} carte numérique → {points}", "other": "{count} cartes numériques → {points}"},
        "en": {"one": "{count} numeric card → {points}", "other": "{count} numeric cards → {points}"},
    },
    "d.malus_special_counted": {
        "fr": {
            "one": "{count} carte spéciale ou action × {each} → {points}",
            "other": "{count} cartes spéciales ou action × {each} → {points}",
        },
        "en": {
            "one": "{count} special or action card × {each} → {points}",
            "other": "{count} special or action cards × {each} → {points}",
        },
    },
    "d.went_out": {"fr": "Aucune carte restante → 0", "en": "No card left → 0"},
    "d.neutralised": {
        "fr": "{cards}: Rainbow et Shadow de même valeur neutralisées → 0",
        "en": "{cards}: rainbow and shadow of the same value neutralised → 0",
    },
    "d.face_value": {
        "fr": "{cards}: valeur faciale → {points}",
        "en": "{cards}: face value → {points}",
    },
    "d.rainbow_active": {
        "fr": "{cards}: Rainbow activée → {points}",
        "en": "{cards}: activated rainbow → {points}",
    },
    "d.rainbow_inactive": {
        "fr": "{cards}: Rainbow seule, non activée → 0",
        "en": "{cards}: lone rainbow, not activated → 0",
    },
    "d.action": {"fr": "{cards}: cartes action → 0", "en": "{cards}: action cards → 0"},
    "d.infini_alone": {
        "fr": "{cards}: Infini seul → −10",
        "en": "{cards}: lone Infini → −10",
    },
    "d.infini_trap": {
        "fr": "{cards}: Infini piégé (action ou Rainbow en main) → +20",
        "en": "{cards}: Infini trapped (action or rainbow in hand) → +20",
    },
    "d.infini_many": {
        "fr": "{cards}: plusieurs Infini → +40 au total",
        "en": "{cards}: several Infini → +40 in all",
    },
    "d.declarer_ok": {
        "fr": "Num Win annoncé avec la main la plus basse → pas de pénalité",
        "en": "Num Win declared with the lowest hand → no penalty",
    },
    "d.declarer_failed": {
        "fr": "Num Win raté (main pas la plus basse) → +20",
        "en": "Failed Num Win (not the lowest hand) → +20",
    },
    "d.tiebreak": {
        "fr": "Manche de départage : ne compte pas dans le total",
        "en": "Tie-break round: not added to the total",
    },
    "tiebreak_won": {
        "fr": "{winner} gagne le départage ({mine} contre {others})",
        "en": "{winner} wins the tie-break ({mine} to {others})",
    },
    "tiebreak_tied": {
        "fr": "Nouvelle égalité ({points}) : une autre manche de départage",
        "en": "Tied again ({points}): another tie-break round",
    },
    "d.streak": {
        "fr": "Manches {first}–{last} : {run} annonces exactes de suite → +{points}",
        "en": "Rounds {first}–{last}: {run} exact bids in a row → +{points}",
    },
    "d.streak_provisional": {
        "fr": "Manches {first}–{last} : {run} annonces exactes de suite → +{points} (provisoire : la partie continue)",
        "en": "Rounds {first}–{last}: {run} exact bids in a row → +{points} (provisional: the game goes on)",
    },
    "d.bid_exact": {
        "fr": {
            "one": "Annonce {bid}, {tricks} pli : réussie → 10 + 3 × {bid} = {points}",
            "other": "Annonce {bid}, {tricks} plis : réussie → 10 + 3 × {bid} = {points}",
        },
        "en": {
            "one": "Bid {bid}, {tricks} trick: made → 10 + 3 × {bid} = {points}",
            "other": "Bid {bid}, {tricks} tricks: made → 10 + 3 × {bid} = {points}",
        },
    },
    "d.bid_missed": {
        "fr": {
            "one": "Annonce {bid}, {tricks} pli : écart {gap} → −3 × {gap} = {points}",
            "other": "Annonce {bid}, {tricks} plis : écart {gap} → −3 × {gap} = {points}",
        },
        "en": {
            "one": "Bid {bid}, {tricks} trick: off by {gap} → −3 × {gap} = {points}",
            "other": "Bid {bid}, {tricks} tricks: off by {gap} → −3 × {gap} = {points}",
        },
    },
    "d.zero_exact": {
        "fr": {
            "one": "Annonce 0 réussie sur {dealt} carte → 20 + 2 × {dealt} = {points}",
            "other": "Annonce 0 réussie sur {dealt} cartes → 20 + 2 × {dealt} = {points}",
        },
        "en": {
            "one": "Bid 0 made on {dealt} card → 20 + 2 × {dealt} = {points}",
            "other": "Bid 0 made on {dealt} cards → 20 + 2 × {dealt} = {points}",
        },
    },
    "d.zero_missed": {
        "fr": {
            "one": "Annonce 0, {tricks} pli : ratée → −(10 + 5 × {tricks}) = {points}",
            "other": "Annonce 0, {tricks} plis : ratée → −(10 + 5 × {tricks}) = {points}",
        },
        "en": {
            "one": "Bid 0, {tricks} trick: failed → −(10 + 5 × {tricks}) = {points}",
            "other": "Bid 0, {tricks} tricks: failed → −(10 + 5 × {tricks}) = {points}",
        },
    },
    "d.coop_won": {
        "fr": "{placed} cartes posées sur {deck} : victoire de la table",
        "en": "{placed} of {deck} cards placed: the table wins",
    },
    "d.coop_lost": {
        "fr": "{placed} cartes posées sur {deck} : défaite de la table",
        "en": "{placed} of {deck} cards placed: the table loses",
    },
    "d.adversaire": {
        "fr": {
            "one": "{placed} carte de sa couleur posée sur 17",
            "other": "{placed} cartes de sa couleur posées sur 17",
        },
        "en": {"one": "{placed} of 17 own-colour cards placed", "other": "{placed} of 17 own-colour cards placed"},
    },
    "d.adversaire_eliminated": {
        "fr": {
            "one": "{placed} carte de sa couleur posée sur 17, éliminé",
            "other": "{placed} cartes de sa couleur posées sur 17, éliminé",
        },
        "en": {
            "one": "{placed} of 17 own-colour cards placed, eliminated",
            "other": "{placed} of 17 own-colour cards placed, eliminated",
        },
    },
    # --- Num King's referee: one line per step of a trick's resolution ----------
    "t.and": {"fr": "et", "en": "and"},
    "t.even": {"fr": "paire", "en": "even"},
    "t.odd": {"fr": "impaire", "en": "odd"},
    "t.cancel": {"fr": "{cards} s'annulent", "en": "{cards} cancel each other out"},
    "t.no_cancel": {
        "fr": "Aucune annulation : aucune valeur jouée par deux familles",
        "en": "No cancellation: no value played by two families",
    },
    "t.no_action": {
        "fr": "Aucune carte action : la plus haute carte valide gagne",
        "en": "No action card: the highest valid card wins",
    },
    "t.active": {"fr": "{card} : {effect}", "en": "{card}: {effect}"},
    "t.active_after": {"fr": "{card} joué après {before} : {effect}", "en": "{card} played after {before}: {effect}"},
    "t.effect.flash": {
        "fr": "le pli est annulé, personne ne le remporte",
        "en": "the trick is cancelled, nobody takes it",
    },
    "t.effect.flip": {"fr": "la plus petite carte valide gagne", "en": "the lowest valid card wins"},
    "t.effect.quantique": {
        "fr": "{count} joueurs, la plus haute carte valide {parity} gagne",
        "en": "{count} players, the highest valid {parity} card wins",
    },
    "t.effect.numx": {"fr": "la plus haute carte valide gagne", "en": "the highest valid card wins"},
    "t.valid": {"fr": "Cartes valides : {cards}", "en": "Valid cards: {cards}"},
    "t.no_valid": {"fr": "Aucune carte valide ne reste", "en": "No valid card is left"},
    "t.quantique_void": {
        "fr": "Aucune carte valide {parity} : Quantique est sans effet, la plus haute carte valide gagne",
        "en": "No valid {parity} card: Quantique has no effect, the highest valid card wins",
    },
    "t.winner": {"fr": "{player} remporte le pli avec {card}", "en": "{player} takes the trick with {card}"},
    "t.no_winner": {"fr": "Personne ne remporte le pli", "en": "Nobody takes the trick"},
    "t.leads_winner": {"fr": "{player} commence le pli suivant", "en": "{player} leads the next trick"},
    "t.leads_highest": {
        "fr": "{player} commence le pli suivant : {card} est la plus haute carte hors Flash",
        "en": "{player} leads the next trick: {card} is the highest card other than Flash",
    },
    "t.leads_tie": {
        "fr": "{player} commence le pli suivant : {cards} sont à égalité, les plus hautes hors Flash, "
        "et {card} a été jouée en premier",
        "en": "{player} leads the next trick: {cards} tie as the highest cards other than Flash, "
        "and {card} was played first",
    },
    "t.leads_again": {
        "fr": "Aucune carte n'a de valeur : {player}, qui a commencé ce pli, commence aussi le suivant",
        "en": "No card has a value: {player}, who led this trick, leads the next one too",
    },
    # How a list of sheets sums up a session (Game.list_line).
    "list.session_games": {
        "fr": {"one": "{count} partie", "other": "{count} parties"},
        "en": {"one": "{count} game", "other": "{count} games"},
    },
    "list.session_wins": {
        "fr": {"one": "{count} gagnée", "other": "{count} gagnées"},
        "en": {"one": "{count} won", "other": "{count} won"},
    },
    "list.player_wins": {
        "fr": {"one": "{name} {count} victoire", "other": "{name} {count} victoires"},
        "en": {"one": "{name} {count} win", "other": "{name} {count} wins"},
    },
    # --- a finished game's ranking (Game.ranking) ------------------------
    "rank.gap": {
        "fr": {"one": "{gap} point d'écart", "other": "{gap} points d'écart"},
        "en": {"one": "{gap} point behind", "other": "{gap} points behind"},
    },
    # How a winner is decided by the totals: the rule ("rank.rule.highest", "rank.rule.lowest"), then the margin.
    "rank.won": {
        "fr": {
            "one": "{rule} : {winner}, {gap} point devant {second}.",
            "other": "{rule} : {winner}, {gap} points devant {second}.",
        },
        "en": {
            "one": "{rule}: {winner}, {gap} point ahead of {second}.",
            "other": "{rule}: {winner}, {gap} points ahead of {second}.",
        },
    },
    "rank.rule.highest": {"fr": "Le plus haut total gagne", "en": "Highest total wins"},
    "rank.rule.lowest": {"fr": "Le plus petit total gagne", "en": "Lowest total wins"},
    "rank.shared": {
        "fr": "Égalité au total ({total}) : {names} partagent la victoire.",
        "en": "Equal totals ({total}): {names} share the win.",
    },
    "rank.tiebreak": {
        "fr": "Égalité au total ({total}), décidée par la manche de départage : {outcome}.",
        "en": "Equal totals ({total}), decided by the tie-break round: {outcome}.",
    },
    "rank.bonus": {
        "fr": "Bonus de {name} : {text}",
        "en": "{name}'s bonus: {text}",
    },
    # --- what a round's cell marks (Game.cell_marks) ---------------------
    "mark.penalty": {"fr": "pénalité", "en": "penalty"},
    "mark.bonus": {"fr": "bonus", "en": "bonus"},
    "mark.tiebreak": {"fr": "départage", "en": "tie-break"},
    # A mark's accessible name: its kind, then the line it marks.
    "mark.said": {"fr": "{label} : {text}", "en": "{label}: {text}"},
}


def ordinal(n, lang="fr", shared=False):
    """Return a place as words: "1er", "2e" ("2e ex æquo" when shared); "1st", "2nd" ("2nd, tied")."""
    if lang == "en":
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}" + (", tied" if shared else "")
    return ("1er" if n == 1 else f"{n}e") + (" ex æquo" if shared else "")


# Messages with plural forms: the parameter whose count picks the form (see `t`).
PLURALS = {
    "session_players": "count",
    "rank.gap": "gap",
    "rank.won": "gap",
    "players_count": "count",
    "players_count_mode": "count",
    "team_size": "count",
    "team_count": "count",
    "team_count_exact": "count",
    "too_many_rounds": "count",
    "team_too_small": "count",
    "bid_above_cards": "cards",
    "tricks_above_cards": "cards",
    "tricks_played_count": "cards",
    "d.malus_numeric": "count",
    "d.malus_special": "count",
    "d.bid_exact": "tricks",
    "d.bid_missed": "tricks",
    "d.zero_exact": "dealt",
    "d.zero_missed": "tricks",
    "d.adversaire": "placed",
    "d.adversaire_eliminated": "placed",
}


def pick(texts, lang):
    """Return the text of ``texts`` ({"fr": ..., "en": ...}) in ``lang``, French if missing."""
    return texts.get(lang) or texts["fr"]


def plural_form(count, lang):
    """Return "one" or "other": the form a message takes for ``count`` in ``lang``.

    French counts 0 and 1 as singular ("0 carte", "1 carte"), English only 1.
    """
    try:
        n = abs(int(str(count).replace("−", "-")))
    except (TypeError, ValueError):
        return "other"
    return "one" if (n <= 1 if lang == "fr" else n == 1) else "other"


def t(code, lang="fr", **params):
    """Render message ``code`` in ``lang`` with ``params`` (French when lang is unknown).

    A message with plural forms gives each language ``{"one": ..., "other": ...}``;
    the parameter named for it in PLURALS picks the form.
    """
    texts = MESSAGES.get(code)
    if texts is None:
        return code
    lang = lang if texts.get(lang) else "fr"  # as pick() falls back: the plural rules of the text shown
    template = texts[lang]
    if isinstance(template, dict):
        form = plural_form(params.get(PLURALS.get(code, "count")), lang)
        template = template.get(form) or template["other"]
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        # A missing parameter must never turn a user error into a crash.
        return template
