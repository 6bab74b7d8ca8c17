"""Width subtyping between records: by name, then by kind; lists fit lists; prefixes."""

from __future__ import annotations

from lgent.kinds import FieldShape, RecordShape, record_fit
from lgent.kinds.records import prefixed_groups
from tests.kinds.helpers import kind, vocab

LATTICE = vocab(kind("Path"), kind("FilePath", ("Path",)), kind("Lat"), kind("Lon"), kind("Name"))


def shape(**fields: FieldShape) -> RecordShape:
    return RecordShape.of(fields)


def test_a_record_with_more_fields_fits_one_asking_for_fewer() -> None:
    producer = shape(
        path=FieldShape("FilePath"),
        size=FieldShape(types=frozenset({"integer"})),
        name=FieldShape("Name"),
    )
    consumer = shape(path=FieldShape("Path"), name=FieldShape(required=False))
    fit = record_fit(producer, consumer, LATTICE)
    assert fit is not None and fit.mapping == (("path", "path"),) and fit.score == 1.0
    assert record_fit(consumer, producer, LATTICE) is None


def test_a_field_of_a_wider_kind_does_not_fit() -> None:
    assert (
        record_fit(shape(path=FieldShape("Path")), shape(path=FieldShape("FilePath")), LATTICE)
        is None
    )


def test_fields_match_by_kind_when_names_differ_if_unambiguous() -> None:
    consumer = shape(latitude=FieldShape("Lat"), longitude=FieldShape("Lon"))
    fit = record_fit(shape(lat=FieldShape("Lat"), lng=FieldShape("Lon")), consumer, LATTICE)
    assert fit is not None and dict(fit.mapping) == {"latitude": "lat", "longitude": "lng"}
    assert fit.by_kind == 2 and fit.score == 0.8
    two = shape(a_lat=FieldShape("Lat"), b_lat=FieldShape("Lat"), lng=FieldShape("Lon"))
    assert record_fit(two, consumer, LATTICE) is None


def test_lists_fit_lists_and_json_types_agree() -> None:
    assert (
        record_fit(
            shape(tags=FieldShape("Name", many=True)), shape(tags=FieldShape("Name")), LATTICE
        )
        is None
    )
    whole = FieldShape(types=frozenset({"integer"}))
    assert (
        record_fit(shape(n=whole), shape(n=FieldShape(types=frozenset({"number"}))), LATTICE)
        is not None
    )
    assert (
        record_fit(shape(n=whole), shape(n=FieldShape(types=frozenset({"string"}))), LATTICE)
        is None
    )


def test_a_consumer_requiring_nothing_is_no_match() -> None:
    assert record_fit(shape(a=FieldShape()), shape(b=FieldShape(required=False)), LATTICE) is None


def test_prefixed_groups() -> None:
    record = shape(
        from_lat=FieldShape("Lat"),
        from_lon=FieldShape("Lon"),
        to_lat=FieldShape("Lat"),
        to_lon=FieldShape("Lon"),
        mode=FieldShape(),
    )
    groups = dict(prefixed_groups(record, ["lat", "lon"]))
    assert set(groups) == {"", "from", "to"}
    assert groups["from"].names == ("lat", "lon")
