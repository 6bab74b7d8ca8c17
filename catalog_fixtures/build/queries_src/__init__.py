"""Hand-labelled queries, one module per class."""


def Q(qid: str, cls: str, query: str, relevant: dict, notes: str | None = None,
      constraints: list | None = None) -> dict:
    q = {"qid": qid, "class": cls, "query": query, "relevant": relevant}
    if constraints:
        q["constraints"] = constraints
    if notes:
        q["notes"] = notes
    return q
