/* tests/fuzz_replay.h: the main of a fuzz target built with -DFUZZ_REPLAY (tests/robust.sh),
 * which runs each file named on the command line through LLVMFuzzerTestOneInput once, without
 * libFuzzer. Its includer defines FUZZ_REPLAY_MAX, the largest input it reads. */
#ifdef FUZZ_REPLAY
int main(int argc, char **argv);

/* Runs each file named on the command line through the target once. */
int main(int argc, char **argv)
{
    static uint8_t buf[FUZZ_REPLAY_MAX];
    int i;
    for (i = 1; i < argc; i++) {
        size_t n;
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            fprintf(stderr, "cannot read %s\n", argv[i]);
            return 1;
        }
        n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        LLVMFuzzerTestOneInput(buf, n);
    }
    fprintf(stderr, "%d inputs replayed\n", argc - 1);
    return 0;
}
#endif
