package format

import "strings"

// isDateTime reports whether s is an RFC 3339 §5.6 date-time: a full-date,
// "T" (or "t"), and a full-time.
func isDateTime(s string) bool {
	return len(s) > 11 && (s[10] == 'T' || s[10] == 't') && isDate(s[:10]) && isTime(s[11:])
}

// isDate reports whether s is an RFC 3339 full-date, YYYY-MM-DD, naming a
// day of the proleptic Gregorian calendar.
func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	year, okYear := decimalDigits(s[0:4])
	month, okMonth := decimalDigits(s[5:7])
	day, okDay := decimalDigits(s[8:10])
	return okYear && okMonth && okDay && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month)
}

// isTime reports whether s is an RFC 3339 full-time: HH:MM:SS, an
// optional fraction of any length, and an offset (Z, z, +HH:MM or
// -HH:MM). Second 60 is a leap second, which RFC 3339 §5.7 allows only
// as the last second of a UTC day: the time less its offset must be
// 23:59:60. (Which days carried one is not checked.)
func isTime(s string) bool {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return false
	}
	hour, okHour := decimalDigits(s[0:2])
	minute, okMinute := decimalDigits(s[3:5])
	second, okSecond := decimalDigits(s[6:8])
	if !okHour || !okMinute || !okSecond || hour > 23 || minute > 59 || second > 60 {
		return false
	}
	rest := s[8:]
	if len(rest) > 0 && rest[0] == '.' {
		n := countDigits(rest[1:])
		if n == 0 {
			return false
		}
		rest = rest[1+n:]
	}
	offset := 0 // minutes east of UTC
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		offHour, okOffHour := decimalDigits(rest[1:3])
		offMinute, okOffMinute := decimalDigits(rest[4:6])
		if !okOffHour || !okOffMinute || offHour > 23 || offMinute > 59 {
			return false
		}
		offset = offHour*60 + offMinute
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return false
	}
	const minutesPerDay, lastMinute = 24 * 60, 23*60 + 59
	return second < 60 || ((hour*60+minute-offset)%minutesPerDay+minutesPerDay)%minutesPerDay == lastMinute
}

// isDuration reports whether s is an ISO 8601 duration as RFC 3339
// Appendix A gives it: "P" then weeks alone ("P2W"), or date components
// (Y, M, D) and/or a "T" and time components (H, M, S). Within a part
// the components keep that order and skip none between the first and the
// last ("P1Y2D" and "PT1H2S" are not durations). Numbers are whole, of
// any length; no sign, fraction or empty part.
func isDuration(s string) bool {
	if len(s) < 3 || s[0] != 'P' {
		return false
	}
	s = s[1:]
	if n := countDigits(s); n > 0 && s[n:] == "W" {
		return true
	}
	s, dateParts, ok := durationComponents(s, "YMD")
	if !ok {
		return false
	}
	if s == "" {
		return dateParts > 0
	}
	if s[0] != 'T' {
		return false
	}
	s, timeParts, ok := durationComponents(s[1:], "HMS")
	return ok && s == "" && timeParts > 0
}

// durationComponents consumes the components of one part of a duration
// from the front of s: numbers each followed by a designator from order,
// in that order, none skipped after the first. It stops at the first
// byte that does not start a number and returns what is left.
func durationComponents(s, order string) (rest string, count int, ok bool) {
	last := -1
	for {
		n := countDigits(s)
		if n == 0 {
			return s, count, true
		}
		if n == len(s) {
			return s, count, false
		}
		at := strings.IndexByte(order, s[n])
		if at < 0 || (last >= 0 && at != last+1) {
			return s, count, false
		}
		last, count, s = at, count+1, s[n+1:]
	}
}

// daysIn returns the number of days in a month (1-12) of a year of the
// proleptic Gregorian calendar.
func daysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
