package stagemap_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/stagemap"
	"github.com/p4hls/p4hls/synth"
)

// browser starts headless Chromium (Debian's chromium, which
// scripts/setup.sh installs; without it the test fails) with the flags
// this machine's closed network needs, and a fresh profile.
func browser(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is not installed (scripts/setup.sh installs Debian's chromium)")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 1000),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelCtx(); cancelAlloc() })
	return ctx
}

// pageProblems collects what a page must not do: log an error, throw,
// or fetch anything but itself.
type pageProblems struct {
	mu   sync.Mutex
	list []string
}

func (p *pageProblems) add(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.list = append(p.list, fmt.Sprintf(format, args...))
}

func (p *pageProblems) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.list
	p.list = nil
	return out
}

func (p *pageProblems) listen(ctx context.Context) error {
	return chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
				p.add("console %s", ev.Type)
			}
		case *runtime.EventExceptionThrown:
			p.add("exception: %s", ev.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				p.add("log: %s", ev.Entry.Text)
			}
		case *network.EventRequestWillBeSent:
			if !strings.HasPrefix(ev.Request.URL, "file://") {
				p.add("fetched %s", ev.Request.URL)
			}
		}
	})
}

// domItems is what the page's stage columns hold, read from the DOM:
// "STAGE KIND NAME TABLE PART", the column's stage first.
const domItems = `Array.from(document.querySelectorAll('svg.stagemap g.stage')).flatMap(g =>
	Array.from(g.querySelectorAll('g.item')).map(i => [g.getAttribute('data-stage'), i.getAttribute('data-kind'),
		i.getAttribute('data-name'), i.getAttribute('data-table'), i.getAttribute('data-part')].join(' ')))`

// page is a program the browser test loads and the target its report is
// for.
type page struct{ name, target string }

// programs are the corpus programs the browser test loads: every one. A
// program with @atomic code is compiled for Banzai (its synthesis takes a
// fraction of a second there, seconds on Tofino: the Tofino stage map of
// those is the placement's all the same), the others for Tofino; every
// program the corpus rejects too (their pages show diagnostics).
func programs(t *testing.T) []page {
	t.Helper()
	var out []page
	ok, _ := filepath.Glob(filepath.Join(corpus.Dir(), "ok", "*.p4"))
	for _, f := range ok {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p := page{"ok/" + filepath.Base(f), "tofino"}
		prog, _, err := frontend.Load(context.Background(), f, src, frontend.Options{}, new(diag.List))
		if err == nil && prog != nil && len(prog.SynthesizedActions()) > 0 {
			p.target = "banzai"
		}
		out = append(out, p)
	}
	out = append(out, page{"ok/blue_increase.p4", "tofino"}, page{"ok/marple_new_flow.p4", "tofino"})
	bad, _ := filepath.Glob(filepath.Join(corpus.Dir(), "bad", "*.p4"))
	for _, f := range bad {
		out = append(out, page{"bad/" + filepath.Base(f), "tofino"})
	}
	return out
}

// TestInChromium loads the report of each program of programs() in
// headless Chromium: no console error, no exception, nothing fetched;
// every table part and ALU the placement put in a stage is in that
// stage's column (queried from the DOM), and nothing else is; a
// program with errors shows them. It saves a screenshot of one page
// (in $P4HLS_TEST_ARTIFACTS when set, else the test's temporary folder).
func TestInChromium(t *testing.T) {
	ctx := browser(t)
	var problems pageProblems
	if err := problems.listen(ctx); err != nil {
		t.Fatal(err)
	}
	for _, enable := range []func() error{
		func() error { _, err := chromedp.Call(ctx, log.Enable, cdp.Empty{}); return err },
		func() error { _, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{}); return err },
		func() error { _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); return err },
	} {
		if err := enable(); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	cache := synth.NewMemoryCache()
	checked := 0
	for _, pg := range programs(t) {
		name := pg.name
		res := compile(t, name, pg.target, "", cache)
		page, err := stagemap.Render(input(name, res))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		file := filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+".html")
		if err := os.WriteFile(file, page, 0o644); err != nil {
			t.Fatal(err)
		}
		got, status, err := load(ctx, file)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p := problems.take(); len(p) > 0 {
			t.Errorf("%s: %s", name, strings.Join(p, "; "))
		}
		want := placed(res)
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: the page's stages hold\n%s\nwant the placement's\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if status != string(res.Report.Status) {
			t.Errorf("%s: the page says %q, the report %q", name, status, res.Report.Status)
		}
		checked++
	}
	t.Logf("%d programs' reports checked in Chromium", checked)
	screenshot(t, ctx, dir)
}

// load opens a page and reads what its stage columns hold and its
// status.
func load(ctx context.Context, file string) ([]string, string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file)); err != nil {
		return nil, "", err
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](domItems))
	if err != nil {
		return nil, "", err
	}
	status, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#status")))
	return got, strings.TrimSpace(status), err
}

// screenshot saves the page of BLUE (increase) as a PNG.
func screenshot(t *testing.T, ctx context.Context, dir string) {
	out := os.Getenv("P4HLS_TEST_ARTIFACTS")
	if out == "" {
		out = t.TempDir()
	}
	file := filepath.Join(dir, "ok_blue_increase.p4.html")
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file)); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if len(png) < 8 || string(png[1:4]) != "PNG" {
		t.Fatal(errors.New("the screenshot is not a PNG"))
	}
	path := filepath.Join(out, "stagemap-blue_increase.png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}
