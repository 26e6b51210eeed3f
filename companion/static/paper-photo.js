/* Reading a sheet from a photo (templates/companion/_paper_photo.html).
 * The photo is shrunk on the phone before it is sent (a 12 MP picture is
 * several megabytes; 3200 px on its long side reads as well), and the
 * page's own form fields go with it. A fix button asks the game's page
 * script to apply the fix in place (a cancelable "paper-fix" event); if it
 * does, the mark is ticked off here, else the button submits the form and
 * the server applies it. Without this script both forms work as they are. */
(function () {
  "use strict";
  var LONGEST = 3200;

  function keep(photoForm) {
    var main = document.querySelector("form[data-photo-keeps]");
    if (!main) return;
    Array.prototype.forEach.call(main.elements, function (el) {
      if (!el.name || el.type === "file" || el.type === "submit" || el.type === "button") return;
      if (["fix", "tap", "asked", "fixed", "painted", "photo"].indexOf(el.name) >= 0) return;
      if ((el.type === "radio" || el.type === "checkbox") && !el.checked) return;
      if (photoForm.querySelector('[name="' + el.name + '"]')) return;
      var copy = document.createElement("input");
      copy.type = "hidden"; copy.name = el.name; copy.value = el.value;
      photoForm.appendChild(copy);
    });
  }

  function shrinkAndSend(form, input) {
    var file = input.files && input.files[0];
    keep(form);
    if (!file || !window.URL || !window.DataTransfer || !HTMLCanvasElement.prototype.toBlob) { form.submit(); return; }
    var img = new Image();
    var url = URL.createObjectURL(file);
    img.onload = function () {
      var scale = Math.min(1, LONGEST / Math.max(img.naturalWidth, img.naturalHeight));
      if (scale >= 1) { URL.revokeObjectURL(url); form.submit(); return; }
      var canvas = document.createElement("canvas");
      canvas.width = Math.round(img.naturalWidth * scale);
      canvas.height = Math.round(img.naturalHeight * scale);
      canvas.getContext("2d").drawImage(img, 0, 0, canvas.width, canvas.height);
      URL.revokeObjectURL(url);
      canvas.toBlob(function (blob) {
        if (blob) {
          var dt = new DataTransfer();
          dt.items.add(new File([blob], "photo.jpg", { type: "image/jpeg" }));
          input.files = dt.files;
        }
        form.submit();
      }, "image/jpeg", 0.92);
    };
    img.onerror = function () { URL.revokeObjectURL(url); form.submit(); };
    img.src = url;
  }

  document.addEventListener("change", function (evt) {
    var input = evt.target;
    var form = input.closest && input.closest("form[data-paper-photo]");
    if (!form || input.type !== "file" || !input.files || !input.files.length) return;
    form.classList.add("sending");
    shrinkAndSend(form, input);
  });
  document.addEventListener("submit", function (evt) {
    var form = evt.target.closest && evt.target.closest("form[data-paper-photo]");
    if (form) keep(form);
  }, true);

  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("[data-fix]");
    if (!button) return;
    var at = button.dataset.fix.indexOf("=");
    var key = button.dataset.fix.slice(0, at), value = button.dataset.fix.slice(at + 1);
    var space = key.indexOf(" ");
    var asked = new CustomEvent("paper-fix", { bubbles: true, cancelable: true,
      detail: { kind: key.slice(0, space), name: key.slice(space + 1), value: value } });
    if (button.dispatchEvent(asked)) return;   // no script applied it: the form is submitted
    evt.preventDefault();
    var item = button.closest("[data-asked]");
    if (item) item.classList.add("fixed");
    var fixed = document.querySelector("[data-photo-fixed]");
    if (fixed) fixed.value = fixed.value.split("|").filter(Boolean).concat([key]).join("|");
  });
})();
