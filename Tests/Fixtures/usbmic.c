/*
 * An emulated USB microphone for tests: an ALSA external (ioplug) capture plugin.
 *
 * It goes through the real ALSA PCM stack, so the product meets the same errors it meets with a
 * real microphone, which the stock plugins cannot produce:
 *   - a fixed format (S16_LE, `channels` channels, `rate_min`…`rate_max` Hz): unsupported formats;
 *   - `busy_file`: while that file exists, opening fails with EBUSY (another program has it);
 *   - `unplug_file`: once that file exists, the device is disconnected (ENODEV), as when the
 *     USB cable is pulled;
 *   - real-time pacing from CLOCK_MONOTONIC with a timerfd to poll, and real overruns when the
 *     reader falls more than a buffer behind.
 * The signal is a 440 Hz sine at -12 dBFS peak, continuous across reads.
 *
 * Built by the tests with: cc -shared -fPIC -DPIC -o libasound_module_pcm_usbmic.so usbmic.c -lasound -lm
 */
#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
#include <math.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    snd_pcm_ioplug_t io;
    int timer;
    char *unplug_file;
    double started_at;
    snd_pcm_uframes_t delivered;   /* frames handed to the application */
    unsigned long long phase;      /* frames of sine generated so far */
} usbmic_t;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int unplugged(usbmic_t *mic) {
    return mic->unplug_file && access(mic->unplug_file, F_OK) == 0;
}

static int mic_start(snd_pcm_ioplug_t *io) {
    usbmic_t *mic = io->private_data;
    if (unplugged(mic)) return -ENODEV;
    mic->started_at = now();
    mic->delivered = 0;
    struct itimerspec every = {0};
    double period = (double)io->period_size / io->rate;
    every.it_interval.tv_sec = every.it_value.tv_sec = (time_t)period;
    every.it_interval.tv_nsec = every.it_value.tv_nsec = (long)((period - (time_t)period) * 1e9);
    return timerfd_settime(mic->timer, 0, &every, NULL) == 0 ? 0 : -errno;
}

static int mic_stop(snd_pcm_ioplug_t *io) {
    usbmic_t *mic = io->private_data;
    struct itimerspec off = {0};
    timerfd_settime(mic->timer, 0, &off, NULL);
    return 0;
}

static snd_pcm_sframes_t mic_pointer(snd_pcm_ioplug_t *io) {
    usbmic_t *mic = io->private_data;
    if (unplugged(mic)) {
        /* The next read sees the disconnected state and fails with ENODEV, as with a real device. */
        snd_pcm_ioplug_set_state(io, SND_PCM_STATE_DISCONNECTED);
        return io->hw_ptr % io->buffer_size;
    }
    if (io->state != SND_PCM_STATE_RUNNING) return io->hw_ptr % io->buffer_size;
    snd_pcm_uframes_t captured = (snd_pcm_uframes_t)((now() - mic->started_at) * io->rate);
    if (captured - io->appl_ptr > io->buffer_size) return -EPIPE;  /* the reader fell behind */
    return captured % io->buffer_size;
}

static snd_pcm_sframes_t mic_transfer(snd_pcm_ioplug_t *io, const snd_pcm_channel_area_t *areas,
                                      snd_pcm_uframes_t offset, snd_pcm_uframes_t size) {
    usbmic_t *mic = io->private_data;
    for (snd_pcm_uframes_t frame = 0; frame < size; frame++) {
        double value = 0.25 * sin(2 * M_PI * 440.0 * (double)(mic->phase++) / io->rate);
        short sample = (short)lrint(value * 32767);
        for (unsigned channel = 0; channel < io->channels; channel++) {
            const snd_pcm_channel_area_t *area = &areas[channel];
            char *address = (char *)area->addr + (area->first + (offset + frame) * area->step) / 8;
            *(short *)address = sample;
        }
    }
    mic->delivered += size;
    return size;
}

static int mic_poll_revents(snd_pcm_ioplug_t *io, struct pollfd *pfd, unsigned int nfds, unsigned short *revents) {
    usbmic_t *mic = io->private_data;
    unsigned long long expirations;
    (void)nfds;
    if (pfd[0].revents & POLLIN) (void)!read(mic->timer, &expirations, sizeof expirations);
    if (unplugged(mic)) { *revents = POLLERR; return 0; }
    snd_pcm_uframes_t captured = (snd_pcm_uframes_t)((now() - mic->started_at) * io->rate);
    *revents = io->state != SND_PCM_STATE_RUNNING || captured - io->appl_ptr >= io->period_size ? POLLIN : 0;
    return 0;
}

static int mic_close(snd_pcm_ioplug_t *io) {
    usbmic_t *mic = io->private_data;
    close(mic->timer);
    free(mic->unplug_file);
    free(mic);
    return 0;
}

static const snd_pcm_ioplug_callback_t callbacks = {
    .start = mic_start, .stop = mic_stop, .pointer = mic_pointer, .transfer = mic_transfer,
    .poll_revents = mic_poll_revents, .close = mic_close,
};

SND_PCM_PLUGIN_DEFINE_FUNC(usbmic) {
    long channels = 1, rate_min = 44100, rate_max = 48000;
    const char *busy_file = NULL, *unplug_file = NULL;
    snd_config_iterator_t i, next;
    (void)root;
    snd_config_for_each(i, next, conf) {
        snd_config_t *entry = snd_config_iterator_entry(i);
        const char *id;
        if (snd_config_get_id(entry, &id) < 0) continue;
        if (!strcmp(id, "comment") || !strcmp(id, "type") || !strcmp(id, "hint")) continue;
        if (!strcmp(id, "channels")) { snd_config_get_integer(entry, &channels); continue; }
        if (!strcmp(id, "rate_min")) { snd_config_get_integer(entry, &rate_min); continue; }
        if (!strcmp(id, "rate_max")) { snd_config_get_integer(entry, &rate_max); continue; }
        if (!strcmp(id, "busy_file")) { snd_config_get_string(entry, &busy_file); continue; }
        if (!strcmp(id, "unplug_file")) { snd_config_get_string(entry, &unplug_file); continue; }
        return -EINVAL;
    }
    if (stream != SND_PCM_STREAM_CAPTURE) return -EINVAL;
    if (busy_file && access(busy_file, F_OK) == 0) return -EBUSY;

    usbmic_t *mic = calloc(1, sizeof *mic);
    if (!mic) return -ENOMEM;
    mic->timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    mic->unplug_file = unplug_file ? strdup(unplug_file) : NULL;
    mic->io.version = SND_PCM_IOPLUG_VERSION;
    mic->io.name = "Emulated USB microphone";
    mic->io.callback = &callbacks;
    mic->io.private_data = mic;
    mic->io.poll_fd = mic->timer;
    mic->io.poll_events = POLLIN;
    int err = snd_pcm_ioplug_create(&mic->io, name, stream, mode);
    if (err < 0) { close(mic->timer); free(mic->unplug_file); free(mic); return err; }

    static const unsigned int access_list[] = { SND_PCM_ACCESS_RW_INTERLEAVED };
    static const unsigned int format_list[] = { SND_PCM_FORMAT_S16_LE };
    if ((err = snd_pcm_ioplug_set_param_list(&mic->io, SND_PCM_IOPLUG_HW_ACCESS, 1, access_list)) < 0 ||
        (err = snd_pcm_ioplug_set_param_list(&mic->io, SND_PCM_IOPLUG_HW_FORMAT, 1, format_list)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&mic->io, SND_PCM_IOPLUG_HW_CHANNELS, channels, channels)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&mic->io, SND_PCM_IOPLUG_HW_RATE, rate_min, rate_max)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&mic->io, SND_PCM_IOPLUG_HW_PERIOD_BYTES, 64, 64 * 1024)) < 0 ||
        (err = snd_pcm_ioplug_set_param_minmax(&mic->io, SND_PCM_IOPLUG_HW_PERIODS, 2, 1024)) < 0) {
        snd_pcm_ioplug_delete(&mic->io);
        return err;
    }
    *pcmp = mic->io.pcm;
    return 0;
}

SND_PCM_PLUGIN_SYMBOL(usbmic);
