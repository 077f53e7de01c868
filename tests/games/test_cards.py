def test_it_imports():
    import scoring.games  # noqa: F401
