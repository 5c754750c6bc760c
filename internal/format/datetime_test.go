package format_test

import (
	"testing"

	"github.com/toolgate/toolgate/internal/format"
)

func TestDateTime(t *testing.T) {
	t.Parallel()
	checkFormat(t, format.Draft2020, "date-time", []formatCase{
		valid("RFC 3339 §5.8 UTC", "1985-04-12T23:20:50.52Z"),
		valid("RFC 3339 §5.8 offset", "1996-12-19T16:39:57-08:00"),
		valid("RFC 3339 §5.8 leap second", "1990-12-31T23:59:60Z"),
		valid("RFC 3339 §5.8 leap second with offset", "1990-12-31T15:59:60-08:00"),
		valid("RFC 3339 §5.8 Netherlands", "1937-01-01T12:00:27.87+00:20"),
		valid("leap second east of UTC, next local day", "2017-01-01T08:59:60+09:00"),
		valid("leap day", "2024-02-29T12:00:00Z"),
		valid("leap century", "2000-02-29T12:00:00Z"),
		valid("year zero", "0000-01-01T00:00:00Z"),
		valid("offset hour 23", "9999-12-31T23:59:59+23:59"),
		valid("long fraction", "2024-01-01T00:00:00.000000000000000000001Z"),
		valid("lower-case t and z", "2024-01-01t00:00:00z"),
		valid("unknown local offset", "2024-01-01T00:00:00-00:00"),
		invalid("not a leap year", "2023-02-29T00:00:00Z"),
		invalid("not a leap century", "1900-02-29T00:00:00Z"),
		invalid("month 13", "2024-13-01T00:00:00Z"),
		invalid("day 0", "2024-01-00T00:00:00Z"),
		invalid("space for T", "2024-01-01 00:00:00Z"),
		invalid("no offset", "2024-01-01T00:00:00"),
		invalid("no seconds", "2024-01-01T00:00Z"),
		invalid("empty fraction", "2024-01-01T00:00:00.Z"),
		invalid("comma fraction", "2024-01-01T00:00:00,5Z"),
		invalid("offset without colon", "2024-01-01T00:00:00+0100"),
		invalid("offset with seconds", "2024-01-01T00:00:00+01:00:00"),
		invalid("offset hour 24", "2024-01-01T12:00:00+24:00"),
		invalid("leap second a minute early in UTC", "2024-01-01T23:59:60+00:01"),
		invalid("leap second at local midnight", "2016-12-31T23:59:60+01:00"),
		invalid("second 61", "2016-12-31T23:59:61Z"),
		invalid("date only", "2024-01-01"),
		invalid("T and nothing", "2024-01-01T"),
		invalid("time only", "T00:00:00Z"),
		invalid("signed year", "+2024-01-01T00:00:00Z"),
		invalid("five-digit year", "12024-01-01T00:00:00Z"),
		invalid("fullwidth digits", "２０２４-01-01T00:00:00Z"),
		invalid("trailing space", "2024-01-01T00:00:00Z "),
		invalid("NUL inside", "2024-01-01T00:00:00\x00Z"),
		invalid("invalid UTF-8", "2024-01-01T00:00:00\xffZ"),
		invalid("empty", ""),
	})
}

func TestDate(t *testing.T) {
	t.Parallel()
	checkFormat(t, format.Draft7, "date", []formatCase{
		valid("plain", "2024-06-30"),
		valid("leap day", "2024-02-29"),
		valid("400-year leap day", "1600-02-29"),
		valid("year zero, a leap year", "0000-02-29"),
		valid("last day of the range", "9999-12-31"),
		invalid("not a leap year", "2023-02-29"),
		invalid("century", "1700-02-29"),
		invalid("31 June", "2024-06-31"),
		invalid("31 September", "2024-09-31"),
		invalid("31 November", "2024-11-31"),
		invalid("month 0", "2024-00-10"),
		invalid("day 32", "2024-01-32"),
		invalid("ordinal date", "2024-183"),
		invalid("week date", "2024-W26-7"),
		invalid("basic format", "20240630"),
		invalid("with time", "2024-06-30T00:00:00Z"),
		invalid("slash", "2024/06/30"),
		invalid("short", "2024-6-30"),
		invalid("empty", ""),
	})
}

func TestTime(t *testing.T) {
	t.Parallel()
	checkFormat(t, format.Draft7, "time", []formatCase{
		valid("UTC", "23:20:50Z"),
		valid("fraction and offset", "23:20:50.52+05:30"),
		valid("midnight", "00:00:00z"),
		valid("leap second UTC", "23:59:60Z"),
		valid("leap second west", "15:59:60-08:00"),
		valid("leap second east", "05:29:60+05:30"),
		valid("leap second across the date line", "00:59:60+01:00"),
		invalid("leap second, wrong minute", "23:58:60Z"),
		invalid("leap second, wrong offset", "23:59:60+00:01"),
		invalid("hour 24", "24:00:00Z"),
		invalid("minute 60", "12:60:00Z"),
		invalid("second 61", "12:00:61Z"),
		invalid("no offset", "12:00:00"),
		invalid("partial offset", "12:00:00+05"),
		invalid("offset minute 60", "12:00:00+05:60"),
		invalid("Z and offset", "12:00:00Z+01:00"),
		invalid("one-digit hour", "1:00:00Z"),
		invalid("no seconds", "12:00Z"),
		invalid("zone name", "12:00:00 UTC"),
		invalid("empty", ""),
	})
}

func TestDuration(t *testing.T) {
	t.Parallel()
	checkFormat(t, format.Draft2019, "duration", []formatCase{
		valid("years", "P1Y"),
		valid("everything", "P1Y2M3DT4H5M6S"),
		valid("days and seconds skip nothing within a part", "P1DT1S"),
		valid("months then days", "P3M4D"),
		valid("zero seconds", "PT0S"),
		valid("zero weeks", "P0W"),
		valid("minutes and seconds", "PT2M3S"),
		valid("big number", "PT1000000000000000000000H"),
		invalid("years then days, skipping months", "P1Y1D"),
		invalid("hours then seconds, skipping minutes", "PT1H1S"),
		invalid("out of order", "PT1S1M"),
		invalid("repeated designator", "P1D1D"),
		invalid("weeks and days", "P1W1D"),
		invalid("weeks and time", "P1WT1H"),
		invalid("only P", "P"),
		invalid("only PT", "PT"),
		invalid("T with no time", "P1DT"),
		invalid("fraction", "PT1.5S"),
		invalid("lower-case designators", "p1d"),
		invalid("lower-case T", "P1Dt1H"),
		invalid("negative", "-P1D"),
		invalid("hours in the date part", "P1H"),
		invalid("days in the time part", "PT1D"),
		invalid("alternative format", "P0001-02-03T04:05:06"),
		invalid("empty", ""),
	})
}
