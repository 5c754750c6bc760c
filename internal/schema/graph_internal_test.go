package schema

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/hostile"
)

// TestMeasureWidthGivesUpWhenStopped: a width measure told to stop while
// it lists a wide object's members answers not measured, never a width
// from the members it had listed (here none, which would read as 1).
func TestMeasureWidthGivesUpWhenStopped(t *testing.T) {
	t.Parallel()
	props := make([]string, 2_000)
	for i := range props {
		props[i] = fmt.Sprintf(`"p%d":{"type":"string"}`, i)
	}
	res := Compile(ToolInput, []byte(`{"type":"object","properties":{`+strings.Join(props, ",")+`}}`))
	require.NotNil(t, res.Schema, "%v", res.Errors)

	width, ok := measureWidth(res.Schema.Root, widthBudget, &stopper{ctx: context.Background()})
	require.True(t, ok)
	require.Equal(t, 1, width)

	ctx := hostile.NewCountdown(context.Background(), 0, context.Canceled)
	_, ok = measureWidth(res.Schema.Root, widthBudget, &stopper{ctx: ctx})
	assert.False(t, ok, "stopped among the 2,000 members")
	assert.Equal(t, int64(1), ctx.Looks(), "one look, after stopEvery members")
}
