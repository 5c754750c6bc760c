package validator_test

import (
	"encoding/json"
	"hash/fnv"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/testgen"
	"github.com/toolgate/toolgate/internal/validator"
)

// The real tools test runs every tool of testdata/mcp-tools (70 real MCP
// tools/list descriptors) and testdata/sigma-tools (the Sigma runtime's
// built-in tools, with hand-written argument cases) through the JSON
// Schema profile: each schema must compile, unless jsToolRefusals lists
// it with the DESIGN.md §8 reason, and on its cases and on arguments
// generated for it (testgen.ParseFull, then FullInstance and mutations
// of valid arguments) our verdict must be the oracle's, whole and
// streamed.

// jsToolRefusals lists "file/tool" schemas the JSON Schema profile
// refuses, with the reason DESIGN.md §8 gives. Empty: every real tool
// compiles.
var jsToolRefusals = map[string]string{}

// realTool is one tool schema of the fixtures.
type realTool struct {
	file, name string
	schema     json.RawMessage
	cases      []toolCase
}

func readRealTools(t *testing.T) []realTool {
	tools := readToolLists(t, filepath.Join(fixtures.Testdata(t, "mcp-tools"), "*.json"))
	sigma, err := filepath.Glob(filepath.Join(fixtures.Testdata(t, "sigma-tools"), "*.cases.json"))
	require.NoError(t, err)
	for _, casesPath := range sigma {
		name := strings.TrimSuffix(filepath.Base(casesPath), ".cases.json")
		var tool struct {
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		require.NoError(t, json.Unmarshal(readFile(t, filepath.Join(filepath.Dir(casesPath), name+".json")), &tool))
		rt := realTool{file: "sigma-tools", name: name, schema: tool.InputSchema}
		require.NoError(t, json.Unmarshal(readFile(t, casesPath), &rt.cases))
		tools = append(tools, rt)
	}
	require.Len(t, tools, 80, "70 MCP tools and 10 Sigma tools")
	return tools
}

// readToolLists reads the tools of every {"tools": [...]} file the glob
// names, in order.
func readToolLists(t *testing.T, glob string) []realTool {
	paths, err := filepath.Glob(glob)
	require.NoError(t, err)
	require.NotEmpty(t, paths, glob)
	var tools []realTool
	for _, path := range paths {
		var list struct {
			Tools []struct {
				Name        string          `json:"name"`
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
		}
		require.NoError(t, json.Unmarshal(readFile(t, path), &list), path)
		for _, tool := range list.Tools {
			tools = append(tools, realTool{file: filepath.Base(path), name: tool.Name, schema: tool.InputSchema})
		}
	}
	return tools
}

func TestJSONSchemaRealTools(t *testing.T) {
	t.Parallel()
	var compared, validCount atomic.Int64
	t.Cleanup(func() {
		n, valid := compared.Load(), validCount.Load()
		t.Logf("%d arguments compared with the oracle, %d of them valid", n, valid)
		if n > 0 {
			assert.InDelta(t, 0.5, float64(valid)/float64(n), 0.35, "the arguments are too one-sided to be a good test")
		}
	})
	for _, tool := range readRealTools(t) {
		t.Run(tool.file+"/"+tool.name, func(t *testing.T) {
			t.Parallel()
			// Read from memory the process cannot write: compiling and
			// validating never write to their input.
			res := schema.CompileWith(schema.JSONSchema, fixtures.ReadOnly(t, tool.schema)[0], schema.Options{})
			if reason, refused := jsToolRefusals[tool.file+"/"+tool.name]; refused {
				assert.NotEmpty(t, res.Errors, "listed as refused (%s) but compiles", reason)
				return
			}
			require.Empty(t, res.Errors, "%s", diffFindings(res.Errors))
			gen, err := testgen.ParseFull(tool.schema)
			require.NoError(t, err)
			compare := newRealToolComparer(t, res.Schema, tool, gen.Dialect, &compared, &validCount)
			r := compare.r
			for _, c := range tool.cases {
				assert.Equal(t, c.Valid, compare.check(c.Arguments, "case "+c.Why), "case %s (%s)", c.Arguments, c.Why)
			}
			verdicts := map[bool]int{}
			for range sweepSize(60, 20) { // generated and mutated arguments per tool
				verdicts[compare.check(testgen.FullInstance(r, gen), "generated")]++
				verdicts[compare.check(testgen.Compact(testgen.Mutate(r, testgen.FullValid(r, gen))), "mutated")]++
			}
			// Some tools take any object, so only valid arguments are
			// required of every tool; invalid ones of the whole set.
			assert.Positive(t, verdicts[true], "no generated arguments are valid: the generator does not fit this tool")
		})
	}
}

// realToolComparer compares our verdicts on one real tool's arguments
// with the oracle's, whole and streamed (see TestJSONSchemaRealTools).
type realToolComparer struct {
	t                    *testing.T
	ours                 *schema.Schema
	oracle               *jsonschema.Schema
	r                    *rand.Rand
	compared, validCount *atomic.Int64
}

// newRealToolComparer compiles tool's schema with the oracle for dialect
// d, and seeds the random splits from the tool's file and name.
func newRealToolComparer(t *testing.T, ours *schema.Schema, tool realTool, d testgen.Dialect, compared, validCount *atomic.Int64) *realToolComparer {
	t.Helper()
	oracle, err := jsOracle(tool.schema, d)
	require.NoError(t, err)
	h := fnv.New64a()
	h.Write([]byte(tool.file + "/" + tool.name))
	return &realToolComparer{t: t, ours: ours, oracle: oracle, r: rand.New(rand.NewPCG(h.Sum64(), 0x7001)), compared: compared, validCount: validCount}
}

// check validates instance, checks the streaming contract on it, and
// asserts that the oracle agrees (or that a DESIGN exception applies);
// it returns our verdict.
func (c *realToolComparer) check(instance []byte, why string) (valid bool) {
	t := c.t
	t.Helper()
	instance = fixtures.ReadOnly(t, instance)[0]
	ours := validator.Validate(c.ours, instance, validator.Options{})
	diffCheckSplit(t, c.ours, instance, ours, c.r, 0)
	jsCheckBytewise(t, c.ours, instance, ours, 0)
	if ex := jsDiffExceptionFor(instance); ex != nil {
		assert.False(t, ours.Valid(), "%s: DESIGN exception %s: %s", why, ex.name, instance)
		return false
	}
	oracleErr := diffOracleValidate(c.oracle, instance)
	c.compared.Add(1)
	if oracleErr == nil {
		c.validCount.Add(1)
	}
	assert.Equal(t, oracleErr == nil, ours.Valid(), "%s: verdicts differ on %s\nours:%s\noracle: %v",
		why, instance, diffFindings(ours.Findings), oracleErr)
	return ours.Valid()
}
