"""The date ticks of every time axis (:func:`~budgetlab.plotting._common.time_axis`): as many as
the axis' width holds (:class:`WidthDateLocator`), labelled by matplotlib's concise formatter
with the year where the ticks cross into another one, and the UTC offset where it changes
(:class:`YearDateFormatter`)."""

from __future__ import annotations

import datetime
import warnings
from typing import Any

import matplotlib.dates as mdates
from matplotlib.axes import Axes

#: The width (inches) a date tick needs on a time axis: its label (``12:00``, ``Oct-06``) and a
#: gap. An axis narrower than 11 of them shows fewer ticks (:class:`WidthDateLocator`).
TICK_INCHES = 0.6


class WidthDateLocator(mdates.AutoDateLocator):
    """matplotlib's :class:`~matplotlib.dates.AutoDateLocator`, with at most one tick per
    :data:`TICK_INCHES` of the axis' width (``maxticks``, at least 3), measured when the axis is
    drawn: after a layout engine or the legends' room narrowed it. Its ``minticks`` is
    matplotlib's, lowered only as far as matplotlib needs to find an interval within
    ``maxticks`` (else it warns and takes its largest). An axis wide enough keeps matplotlib's
    own choice.

    Ticks of hours (and finer) are placed evenly in UTC, on the zone's clock as it reads at the
    axis' start: matplotlib places them on the zone's wall clock, which has no tick in the
    repeated hour of a fall-back (02:00 CET after 02:00 CEST) and leaves 2 h between the ticks
    around it. Ticks of days and longer stay on the zone's midnights."""

    def __init__(self, tz: str) -> None:
        super().__init__(tz=tz)  # type: ignore[no-untyped-call]
        self._wide = (dict(self.maxticks), self.minticks)

    def get_locator(self, dmin: Any, dmax: Any) -> Any:
        locator = self._fitting(dmin, dmax)
        if isinstance(locator, mdates.RRuleLocator) and self._freq > mdates.DAILY:
            start = min(dmin, dmax).astimezone(self.tz)  # a fixed offset: no DST
            locator.set_tzinfo(datetime.timezone(start.utcoffset()))  # type: ignore[no-untyped-call]
        return locator

    def _fitting(self, dmin: Any, dmax: Any) -> Any:
        """matplotlib's locator for ``dmin .. dmax``, with as many ticks as the axis holds."""
        self.maxticks, self.minticks = dict(self._wide[0]), self._wide[1]
        axes: Axes | None = getattr(self.axis, "axes", None)  # on an axis (else None)
        fig = axes.get_figure(root=True) if axes is not None else None
        if axes is None or fig is None:
            return super().get_locator(dmin, dmax)  # type: ignore[no-untyped-call]
        n = int(axes.get_window_extent().width / fig.dpi / TICK_INCHES)
        if n >= 11:
            return super().get_locator(dmin, dmax)  # type: ignore[no-untyped-call]
        self.maxticks = dict.fromkeys(self.maxticks, max(3, n))
        for most in range(self._wide[1], 1, -1):
            self.minticks = most
            # matplotlib says only by this warning that no interval fits; a filter is safe here:
            # figures are drawn on the main thread (never on a reader's worker threads), and
            # restating its rule would read its private attributes (_freqs)
            with warnings.catch_warnings():
                warnings.simplefilter("error", UserWarning)
                try:
                    return super().get_locator(dmin, dmax)  # type: ignore[no-untyped-call]
                except UserWarning:  # "unable to pick an appropriate interval"
                    pass
        self.minticks = 1  # an interval always fits in 3 ticks
        return super().get_locator(dmin, dmax)  # type: ignore[no-untyped-call]


class YearDateFormatter(mdates.ConciseDateFormatter):
    """matplotlib's :class:`~matplotlib.dates.ConciseDateFormatter`, whose ticks name the year
    where they cross into another one, and the month where a tick of days is the first or in
    another month than the tick before. Ticks of days write the month only on the 1st, and
    the year only in the offset (the last tick's: ``2014-Feb``), so the ticks before a month's
    (or a year's) first tick read as the offset's month and year; here such a tick is labelled
    as matplotlib labels a day on an axis of hours (``Dec-15``), and the first tick of each year
    with its year (as matplotlib labels January on an axis of months), followed by its own label
    when it is not the year's start: the first tick of the axis too (``Dec-15`` then ``2013``
    under it), so the first year is named as well. Ticks of hours name a day only at midnight,
    and the offset names the last tick's: a first tick of another day, or a tick in a new day
    not at midnight (after a change of UTC offset), names its day under its time (``04:00`` then
    ``May-19``). Ticks of hours on either side of a change of UTC offset (a switch to or from
    daylight saving time) write the offset under their time (``02:00`` then ``+02``, ``02:00``
    then ``+01``: the repeated hour of a fall-back). Other ticks keep matplotlib's labels.
    Ticks of one day keep the offset (that day, ``2015-May-19``); ticks of several days have
    none (it named the last tick's date alone at the axis' right end, over or beside the x
    label): their first tick names its year instead (``May-17`` then ``2015``; ``12:00`` then
    ``2015-May-17``), as a tick in a new year does.

    >>> loc = mdates.DayLocator(bymonthday=[1, 15])
    >>> f = YearDateFormatter(loc, tz="UTC")
    >>> f.format_ticks(mdates.date2num(["2013-12-15", "2014-01-01", "2014-01-15"]))
    ['Dec-15\\n2013', '2014', '15']
    >>> f.get_offset()
    ''
    >>> f.format_ticks(mdates.date2num(["2014-01-01", "2014-01-15"]))  # one year: the first's
    ['Jan\\n2014', '15']
    >>> f.format_ticks(mdates.date2num(["2014-01-26", "2014-02-02", "2014-02-09"]))
    ['Jan-26\\n2014', 'Feb-02', '09']
    >>> f = YearDateFormatter(mdates.HourLocator(byhour=[4, 12, 20]), tz="UTC")
    >>> f.format_ticks(mdates.date2num(["2015-05-19 12:00", "2015-05-20", "2015-05-20 08:00"]))
    ['12:00\\n2015-May-19', 'May-20', '08:00']
    >>> f.get_offset()
    ''
    >>> f.format_ticks(mdates.date2num(["2015-05-19 04:00", "2015-05-19 12:00"]))  # one day
    ['04:00', '12:00']
    >>> f.get_offset()
    '2015-May-19'
    >>> f = YearDateFormatter(mdates.HourLocator(), tz="Europe/Berlin")  # the fall-back, 01:00Z
    >>> f.format_ticks(mdates.date2num(["2026-10-24 23:00", "2026-10-25 00:00",
    ...                                 "2026-10-25 01:00", "2026-10-25 02:00"]))  # UTC
    ['01:00', '02:00\\n+02', '02:00\\n+01', '03:00']
    """

    def format_ticks(self, values: Any) -> list[str]:
        labels: list[str] = super().format_ticks(values)  # type: ignore[no-untyped-call]
        dates = mdates.num2date(values, tz=self._tz)  # type: ignore[no-untyped-call]
        for i, d in enumerate(dates):  # a day's number: its month too, first or in a new month
            if labels[i] == d.strftime(self.formats[2]) and (
                    i == 0 or d.month != dates[i - 1].month):
                labels[i] = d.strftime(self.zero_formats[3])
        for i, d in enumerate(dates):  # ticks of hours: a day is named at midnight only, and
            other = dates[i - 1] if i else dates[-1]  # the offset names the last tick's
            if labels[i] == d.strftime(self.formats[3]) and d.date() != other.date():
                labels[i] = f"{labels[i]}\n{d.strftime(self.zero_formats[3])}"
        if any(d.time() != datetime.time() for d in dates):  # ticks of hours: offset changes
            changed = [i for i in range(1, len(dates))
                       if dates[i].utcoffset() != dates[i - 1].utcoffset()]
            for i in sorted({*changed, *(i - 1 for i in changed)}):
                time, _, day = labels[i].partition("\n")  # the offset under the time
                labels[i] = "\n".join(filter(None, (time, utc_offset(dates[i]), day)))
        for i, d in enumerate(dates):
            # a year the tick before was not in; the first tick's when the ticks cross a year
            before = dates[i - 1] if i else dates[-1]
            if d.year == before.year or str(d.year) in labels[i]:
                continue  # the same year, or matplotlib wrote it (ticks of months)
            start = (d.month, d.day, d.hour, d.minute, d.second) == (1, 1, 0, 0, 0)
            labels[i] = f"{d.year}" if start else f"{labels[i]}\n{d.year}"
        # several days: the last tick's date alone at the axis' end is noise; the first names
        # its year instead
        self._days = len(dates) > 0 and dates[0].date() != dates[-1].date()
        if self._days:
            labels[0] = _with_year(labels[0], dates[0].year)
        return labels

    def get_offset(self) -> str:
        """matplotlib's offset for ticks of one day, none for ticks of several."""
        return "" if getattr(self, "_days", False) else str(
            super().get_offset())  # type: ignore[no-untyped-call]


def _with_year(label: str, year: int) -> str:
    """A first tick's ``label`` naming ``year``: under it (``May-17`` then ``2015``), or before the
    day on its last line (``12:00`` then ``2015-May-17``); as it is when it names the year.

    >>> _with_year("May-17", 2015), _with_year("12:00\\nMay-17", 2015), _with_year("2014", 2014)
    ('May-17\\n2015', '12:00\\n2015-May-17', '2014')
    """
    if str(year) in label:
        return label
    head, sep, last = label.rpartition("\n")
    return f"{head}{sep}{year}-{last}" if sep else f"{label}\n{year}"


def utc_offset(when: datetime.datetime) -> str:
    """The UTC offset of an aware ``when`` as a time axis writes it: hours, and minutes when it
    has them.

    >>> from zoneinfo import ZoneInfo
    >>> utc_offset(datetime.datetime(2026, 10, 25, 2, 30, tzinfo=ZoneInfo("Europe/Berlin")))
    '+02'
    >>> utc_offset(datetime.datetime(2026, 10, 25, 2, 30, fold=1, tzinfo=ZoneInfo("Europe/Berlin")))
    '+01'
    >>> utc_offset(datetime.datetime(2026, 1, 1, tzinfo=ZoneInfo("America/St_Johns")))
    '-03:30'
    """
    z = when.strftime("%z")  # +0200, -0330
    return z[:3] if z[3:] == "00" else f"{z[:3]}:{z[3:]}"
