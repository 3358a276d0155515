package definitions

import (
	"fmt"
	"math"
	"reflect"
	"strings"
)

// assign stores the checked JSON-like value v (as Check returns it: nil, bool, string, float64
// or int64, []any, map[string]any) into dst, following json tags. It replaces a JSON
// encode/decode round trip on the hot path of every call.
func assign(dst reflect.Value, v any) error {
	if v == nil {
		dst.SetZero()
		return nil
	}
	switch dst.Kind() {
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("want a string, got %T", v)
		}
		dst.SetString(s)
	case reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("want a boolean, got %T", v)
		}
		dst.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f, ok := number(v)
		if !ok || f != math.Trunc(f) || dst.OverflowInt(int64(f)) || math.Abs(f) > 1<<53 {
			return fmt.Errorf("want an integer in range, got %v", v)
		}
		dst.SetInt(int64(f))
	case reflect.Float32, reflect.Float64:
		f, ok := number(v)
		if !ok {
			return fmt.Errorf("want a number, got %T", v)
		}
		dst.SetFloat(f)
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("want an array, got %T", v)
		}
		out := reflect.MakeSlice(dst.Type(), len(list), len(list))
		for i, e := range list {
			if err := assign(out.Index(i), e); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
		dst.Set(out)
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok || dst.Type().Key().Kind() != reflect.String {
			return fmt.Errorf("want an object, got %T", v)
		}
		out := reflect.MakeMapWithSize(dst.Type(), len(m))
		for k, e := range m {
			ev := reflect.New(dst.Type().Elem()).Elem()
			if err := assign(ev, e); err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			out.SetMapIndex(reflect.ValueOf(k).Convert(dst.Type().Key()), ev)
		}
		dst.Set(out)
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("want an object, got %T", v)
		}
		return assignStruct(dst, m)
	case reflect.Pointer:
		p := reflect.New(dst.Type().Elem())
		if err := assign(p.Elem(), v); err != nil {
			return err
		}
		dst.Set(p)
	case reflect.Interface:
		dst.Set(reflect.ValueOf(v))
	default:
		return fmt.Errorf("unsupported field type %s", dst.Type())
	}
	return nil
}

// assignStruct sets the fields of dst from m by their json names; unknown keys are an error.
func assignStruct(dst reflect.Value, m map[string]any) error {
	t := dst.Type()
	matched := 0
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		v, ok := m[name]
		if !ok {
			continue
		}
		matched++
		if err := assign(dst.Field(i), v); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if matched != len(m) {
		return fmt.Errorf("unknown fields in %v", m)
	}
	return nil
}

// number reads a JSON number as Check leaves it.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	}
	return 0, false
}
